"""Copy the Botzone judge transcripts into the test data, in a compact form.

The transcripts (shared/botzone/judge-logs/, see its README) are the conformance data of the
``botzone`` profile and of mjenv.botzone. CI checks out only this repository, so the tests read
a copy: ``tests/golden/botzone_judge_logs.json.gz``, one object per game with what a conformance
check needs and nothing else (the judge's display fields are dropped):

``name`` (folder/file), ``quan``, ``walltiles``, ``turns``: a list of ``{"requests": [4 lines],
"replies": [[verdict, response] x 4]}`` (the last turn has no replies when the judge finished
there), and ``finish``: ``{"action", "player", "scores", "fans": [[name, count, value]],
"fanCnt"}`` as the judge's final output says it.

    python scripts/import_botzone_logs.py [--src ../shared/botzone/judge-logs]
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SRC = ROOT.parent / "shared" / "botzone" / "judge-logs"
OUT = ROOT / "tests" / "golden" / "botzone_judge_logs.json.gz"


def compact(name: str, game: dict[str, Any]) -> dict[str, Any]:
    log = game["log"]
    init = log[0]["output"]["initdata"]
    turns: list[dict[str, Any]] = []
    finish: dict[str, Any] | None = None
    for k in range(0, len(log), 2):
        out = log[k]["output"]
        if out["command"] == "finish":
            d = out["display"]
            finish = {
                "action": d["action"], "player": d.get("player"),
                "scores": [out["content"][str(s)] for s in range(4)],
                "fans": [[f["name"], f["cnt"], f["value"]] for f in d.get("fan") or []],
                "fanCnt": d.get("fanCnt"),
            }
            break
        replies = log[k + 1]
        turns.append({
            "requests": [out["content"][str(s)] for s in range(4)],
            "replies": [[replies[str(s)].get("verdict", "OK"), replies[str(s)].get("response", "")]
                        for s in range(4)],
        })
    if finish is None:
        raise ValueError(f"{name}: the log has no finish")
    return {"name": name, "quan": init["quan"], "walltiles": init["walltiles"],
            "turns": turns, "finish": finish}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=DEFAULT_SRC)
    args = parser.parse_args()
    games = []
    for path in sorted(args.src.glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "log" not in data:
            continue  # summary.json, probes.json
        games.append(compact(f"{path.parent.name}/{path.name}", data))
    text = json.dumps(games, ensure_ascii=False, separators=(",", ":"))
    OUT.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    print(f"{len(games)} games -> {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
