"""Copy the Botzone judge transcripts into the test data, in a compact form.

The transcripts (shared/botzone/, see its README: ``judge-logs/<folder>/*.json`` and
``conformance-2/*.json``, the kongs at the walls' end and the turns with two faults of issue
19) are the conformance data of the ``botzone`` profile and of mjenv.botzone. CI checks out
only this repository, so the tests read a copy: ``tests/golden/botzone_judge_logs.json.gz``,
one object per game with what a conformance check needs and nothing else (the judge's display
fields are dropped):

``name`` (folder/file), ``quan``, ``walltiles``, ``turns``: a list of ``{"requests": [4 lines],
"replies": [[verdict, response] x 4]}`` (the last turn has no replies when the judge finished
there), and ``finish``: ``{"action", "player", "scores", "fans": [[name, count, value]],
"fanCnt"}`` as the judge's final output says it.

    python scripts/import_botzone_logs.py [--src ../shared/botzone]
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SRC = ROOT.parent / "shared" / "botzone"
OUT = ROOT / "tests" / "golden" / "botzone_judge_logs.json.gz"
SOURCES = ("judge-logs/*/*.json", "conformance-2/*.json")
"""The transcripts under the source folder, in this order; each is named by its folder and
file name (``model/game000.json``, ``conformance-2/kong-model045.json``)."""


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


def read_all(src: Path) -> list[dict[str, Any]]:
    """Every transcript of :data:`SOURCES` under ``src`` (the shared botzone folder), compacted."""
    games = []
    for pattern in SOURCES:
        for path in sorted(src.glob(pattern)):
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or "log" not in data:
                continue  # summary.json, probes.json
            games.append(compact(f"{path.parent.name}/{path.name}", data))
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=DEFAULT_SRC,
                        help="the shared botzone folder (holding judge-logs/ and conformance-2/)")
    args = parser.parse_args()
    games = read_all(args.src)
    text = json.dumps(games, ensure_ascii=False, separators=(",", ":"))
    OUT.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    print(f"{len(games)} games -> {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
