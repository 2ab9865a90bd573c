"""scripts/check_shared_copies.py, on a stand-in for ``../shared`` built from the golden copies.

The check itself compares tests/golden/ with the real ``../shared`` (which a fresh clone lacks),
so it is a script, not a test; these tests only show that it tells current, stale and missing
apart, and they need neither ``../shared`` nor PyMahjongGB.
"""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULE_EXAMPLES = json.loads((ROOT / "tests" / "golden" / "rule_examples.json").read_text("utf-8"))
JUDGE_LOGS = json.loads(gzip.decompress(
    (ROOT / "tests" / "golden" / "botzone_judge_logs.json.gz").read_bytes()))


def _source_example(ex: dict[str, Any], to_pack: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """A golden example back in the form of the examples file (PyMahjongGB's input)."""
    out = {"id": int(ex["id"][1:]), "title": ex["title"], "hand": ex["hand"],
           "pack": [to_pack(m) for m in ex["melds"]], "win": ex["win_tile"],
           "self": ex["self_drawn"], "last_copy": ex["last_copy"], "last_tile": ex["last_tile"],
           "kong": ex["kong_win"], "seat": ex["seat_wind"], "prev": ex["prevalent_wind"],
           "flowers": ex["flowers"], "expect": ex["expect"], "expect_total": ex["expect_total"]}
    if "note" in ex:
        out["note"] = ex["note"]
    return out


def _judge_log(game: dict[str, Any]) -> dict[str, Any]:
    """A compact golden game back as a judge transcript (what import_botzone_logs reads)."""
    log: list[dict[str, Any]] = []
    for k, turn in enumerate(game["turns"]):
        output: dict[str, Any] = {"command": "request",
                                  "content": {str(s): r for s, r in enumerate(turn["requests"])}}
        if k == 0:
            output["initdata"] = {"quan": game["quan"], "walltiles": game["walltiles"]}
        log.append({"output": output})
        log.append({str(s): {"verdict": v, "response": r}
                    for s, (v, r) in enumerate(turn["replies"])})
    f = game["finish"]
    log.append({"output": {
        "command": "finish", "content": {str(s): x for s, x in enumerate(f["scores"])},
        "display": {"action": f["action"], "player": f["player"], "fanCnt": f["fanCnt"],
                    "fan": [{"name": n, "cnt": c, "value": v} for n, c, v in f["fans"]]}}})
    return {"log": log}


@pytest.fixture()
def script(load_script: Callable[[str], ModuleType]) -> ModuleType:
    return load_script("check_shared_copies")


@pytest.fixture()
def shared(tmp_path: Path, script: ModuleType) -> Path:
    """A ``shared`` folder whose sources give exactly the golden copies."""
    rules = tmp_path / "rules"
    rules.mkdir()
    to_pack = script.regen_rule_examples.to_pymahjonggb
    examples = [_source_example(ex, to_pack) for ex in RULE_EXAMPLES]
    text = json.dumps(examples, ensure_ascii=False)
    (rules / "verify_rule_examples.py").write_text(f"import json\n\nEX = json.loads({text!r})\n",
                                                   encoding="utf-8")
    for game in JUDGE_LOGS:
        top = "" if game["name"].startswith("conformance-2/") else "judge-logs"
        path = tmp_path / "botzone" / top / game["name"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(_judge_log(game)), encoding="utf-8")
    (tmp_path / "botzone" / "judge-logs" / "model" / "summary.json").write_text("[]")
    return tmp_path


def test_current_copies(script: ModuleType, shared: Path, capsys: pytest.CaptureFixture[str]
                        ) -> None:
    assert script.main(["--shared", str(shared)]) == 0
    assert capsys.readouterr().out.count(": current") == 2


def test_stale_copies_are_named(script: ModuleType, shared: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    source = shared / "rules" / "verify_rule_examples.py"
    source.write_text(source.read_text("utf-8").replace('"expect_total": 92', '"expect_total": 93'),
                      encoding="utf-8")
    (shared / "botzone" / "judge-logs" / "probes" / "probe00.json").unlink()
    assert script.main(["--shared", str(shared)]) == 1
    out = capsys.readouterr().out
    assert "rule examples: E4 differs in expect_total" in out
    assert "judge logs: probes/probe00.json is in the copy only" in out
    assert "refresh with: python scripts/import_botzone_logs.py" in out


@pytest.mark.parametrize("remove", [None, "rules/verify_rule_examples.py", "botzone"])
def test_missing_source(script: ModuleType, shared: Path, remove: str | None,
                        capsys: pytest.CaptureFixture[str]) -> None:
    if remove is None:
        shared = shared / "nowhere"
    elif remove == "botzone":
        shutil.rmtree(shared / remove)
    else:
        (shared / remove).unlink()
    assert script.main(["--shared", str(shared)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cannot check") and "\n" not in err
