"""scripts/history_reader.py (searching another seat's whole history, docs/training.md): the
real history fits every recorded decision, a wrong one does not, the search lowers the misfit,
and the measurement's rows and command line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from mjenv.encoders import make_encoder
from mjenv.engine.rules import MCR
from mjenv.vector.options import env_options
from mjenv.vector.slot import GameSlot


def _recorded(script: ModuleType, hands: int) -> list[object]:
    rule = script.RuleBasedAgent()
    encoder = make_encoder("mjenv-v1", MCR)
    slot = GameSlot(env_options({"rules": "mcr"}))
    out: list[object] = []
    for h in range(hands):
        out += script.play_hand(slot, 7000 + h, h % 4, rule,
                                lambda view, unseen: script.Recorder(view, unseen, rule, encoder))
    return out


def test_the_real_history_fits_and_a_wrong_one_does_not(
        load_script: Callable[[str], ModuleType]) -> None:
    script = load_script("history_reader")
    recorders = _recorded(script, 20)
    assert len(recorders) == 60
    wrong = 0
    rng = np.random.default_rng(0)
    for r in recorders:
        start, picks = r.real_start, r.real_picks()
        dep, vio, _ = r.replay(start, picks)
        assert (dep, vio) == (0, 0)
        other = list(start)  # one starting tile swapped for a kind the seat did not hold
        out = int(rng.choice(34, p=np.array(other) / sum(other)))
        into = int(rng.choice([k for k in range(34) if not other[k] and r.start_cap[k]]))
        other[out] -= 1
        other[into] += 1
        dep, vio, _ = r.replay(other, picks)
        wrong += dep + vio > 0
    assert wrong >= 50  # rule's decisions or the public events give nearly every one away


def test_the_search_lowers_the_misfit(load_script: Callable[[str], ModuleType]) -> None:
    script = load_script("history_reader")
    r = max(_recorded(script, 2), key=lambda r: len(r.steps))
    rng = np.random.default_rng(1)
    _, short = r.search(rng, 4, 0.02, keep=2)
    kept, long = r.search(np.random.default_rng(1), 600, 0.02, keep=5)
    assert long <= short
    assert len(kept) == 5 and all(sum(h) == sum(kept[0]) for h in kept)


def test_the_measurement_and_its_command_line(
        load_script: Callable[[str], ModuleType], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script("history_reader")
    rows, stats = script.measure(2, steps=20, late=60, progress=False)
    assert rows.shape[1] == len(script.COLUMNS) and len(rows) > 0
    assert ((rows[:, 1] >= 0) & (rows[:, 1] <= 1 + 1e-9)).all()
    assert 0 <= stats["held history"] <= 14 and stats["fewest (median)"] >= 0
    out = tmp_path / "rows.npz"
    assert script.main(["--hands", "2", "--steps", "10", "--late", "60",
                        "--out", str(out)]) == 0
    assert np.load(out)["rows"].shape[1] == len(script.COLUMNS)
    assert "AUC" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        script.main(["--steps", "1"])
    assert stop.value.code == 2
    assert "--steps >= 2" in capsys.readouterr().err
