"""Golden playthroughs (issue 13): seeded trajectories replay exactly as recorded.

``tests/golden/playthroughs/<profile>.<encoder>.jsonl`` record, step by step, a few seeded hands
of every rule profile (``mcr``, ``botzone``, ``botzone`` with flowers, an ``mcr`` match cut after
two hands) x every encoder (``mjenv-v1``, ``ijcai-v1``, ``oracle=True``): the agent to act, the
observation's sha256 and per-channel fingerprint, the decoded hand, the legal ids, the rewards,
terminations, truncations and infos (see ``scripts/regen_golden_playthroughs.py``). This test
replays the recorded actions through ``mjenv.env`` and names the first difference: the file, the
line, the episode and step, and the fields (for an observation, the channels) that changed.

A failure means that what an agent sees or gets changed. A bug: fix the code, not the goldens.
A changed meaning of an observation (a channel added, moved, or computed differently) needs a
NEW encoder name (``mjenv-v2``; a published name such as ``mjenv-v1`` stays frozen) and a new
golden configuration. Regenerate (``python scripts/regen_golden_playthroughs.py``; ``--check``
compares) only for an intended change, say why in the commit, and review the golden diff.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "regen_golden_playthroughs.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen_golden_playthroughs", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


golden = _load()


@pytest.mark.parametrize("config", golden.CONFIGS, ids=lambda c: c.name)
def test_playthrough_replays_as_recorded(config: object) -> None:
    problem = golden.check(config)
    if problem is not None:
        pytest.fail(problem, pytrace=False)


def test_every_golden_file_belongs_to_a_configuration() -> None:
    on_disk = {p.name for p in golden.OUT_DIR.glob("*.jsonl")}
    expected = {c.path.name for c in golden.CONFIGS}
    assert on_disk == expected, (
        f"golden files without a configuration: {sorted(on_disk - expected)}; configurations "
        f"without a file: {sorted(expected - on_disk)} "
        "(python scripts/regen_golden_playthroughs.py)")


def test_goldens_cover_wins_claims_kongs_draws_and_flowers() -> None:
    """The recorded hands show what the goldens are meant to pin (so that a regeneration with
    other seeds or another policy cannot quietly lose it)."""
    seen: dict[str, set[str]] = {}
    for config in golden.CONFIGS:
        lines = [json.loads(x) for x in config.path.read_text(encoding="utf-8").splitlines()]
        header, records = lines[0], [r for r in lines[1:] if "t" in r]
        assert header["config"] == config.name
        got = seen.setdefault(config.profile, set())
        for r in records:
            a = r["act"]
            if a is not None:
                got.add("win" if a == golden.WIN else
                        "chow" if golden.CHOW <= a < golden.PUNG else
                        "pung" if golden.PUNG <= a < golden.KONG else
                        "kong" if golden.KONG <= a < golden.CONCEALED_KONG else
                        "concealed_kong" if golden.CONCEALED_KONG <= a < golden.ADDED_KONG else
                        "added_kong" if a >= golden.ADDED_KONG else "other")
            for info in r["infos"].values():
                result = (info or {}).get("result")
                if result:
                    got.add("draw" if result["winner"] is None else
                            "self_drawn" if result["self_drawn"] else "discard_win")
                    if result["robbed"]:
                        got.add("robbed")
                    if any(f["zh"] == "花牌" for f in result["fans"]):  # flowers scored
                        got.add("flowers")
        if config.p.flowers or config.profile.startswith("mcr"):
            assert header["num_tiles"] == 144, config.name
    hand = {"win", "chow", "pung", "kong", "concealed_kong", "added_kong", "self_drawn",
            "discard_win", "draw"}
    want = {"mcr-hand": hand | {"flowers"}, "botzone-hand": hand,
            "botzone-flowers-hand": hand | {"flowers"},
            "mcr-match": {"win", "self_drawn", "discard_win", "robbed"}}
    assert set(seen) == set(want)
    for profile, got in seen.items():
        assert want[profile] <= got, f"{profile}: the goldens lack {sorted(want[profile] - got)}"
