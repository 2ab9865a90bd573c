"""scripts/particle_reader.py (the particle filter over the other hands, docs/training.md): a
particle holding the real hand and drawing the real tiles is asked exactly the real questions
(its observation and legal actions are the seat's real ones) and departs from no real decision;
the measurement's rows and its command line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from mjenv.engine.seat_view import SeatView


def test_the_real_hand_fits_every_real_decision(
        load_script: Callable[[str], ModuleType]) -> None:
    script = load_script("particle_reader")
    rows, counts = script.measure(40, truth=True, progress=False)
    assert len(rows) == 0  # nothing is scored in truth mode
    assert counts["asked"] > 1500  # discards, kongs, and claim windows with options
    assert counts["departures"] == 0
    assert counts["mismatches"] == 0


def test_one_wrong_starting_tile_is_almost_always_noticed(
        load_script: Callable[[str], ModuleType]) -> None:
    script = load_script("particle_reader")
    _, counts = script.measure(40, truth=True, perturb=1, progress=False)
    n = counts["seat-hands"]
    assert n == 120
    assert 0.3 < counts["ruled out"] / n < 0.8  # a discard or meld it could not make
    assert counts["unnoticed"] / n < 0.1  # rule's decisions notice nearly all of the rest
    assert counts["departures when noticed"] >= 1


def test_the_truth_check_catches_a_wrong_observation(
        load_script: Callable[[str], ModuleType], monkeypatch: pytest.MonkeyPatch) -> None:
    script = load_script("particle_reader")
    monkeypatch.setattr(script, "UNSEEN_ROW", 7)  # the hand's unseen counts put in the wrong row
    _, counts = script.measure(3, truth=True, progress=False)
    assert counts["mismatches"] > 0


def test_a_tile_shown_elsewhere_rules_out_the_hands_holding_its_last_copies(
        load_script: Callable[[str], ModuleType]) -> None:
    script = load_script("particle_reader")
    view = SeatView(1)
    unseen = [4] * 34
    f = script.HandFilter(view, unseen, 3, 0.1, np.random.default_rng(0),
                          script.RuleBasedAgent(), script.make_encoder("mjenv-v1", script.MCR))
    f.hands = [[0] * 34 for _ in range(3)]
    f.hands[0][5] = 2  # holds two of the two copies left of kind 5
    f.hands[1][5] = 1
    f.logw[:] = 0.0
    shown = [0] * 34
    shown[5] = 1
    before = [4] * 34
    before[5] = 2
    f._shown(before, shown)
    assert f.logw[0] == script.DEAD
    assert f.logw[1] == pytest.approx(np.log(0.5))  # one of the two copies was left for others
    assert f.logw[2] == 0.0


def test_the_measurement_scores_each_estimate(
        load_script: Callable[[str], ModuleType], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script("particle_reader")
    for options in ({}, {"adapt": True, "jitter": 0.5}):
        rows, counts = script.measure(2, particles=8, late=70, progress=False, **options)
        assert rows.shape[1] == len(script.COLUMNS) and len(rows) > 0
        assert set(np.unique(rows[:, 0])) <= {0.0, 1.0}
        assert ((rows[:, 1:3] >= 0) & (rows[:, 1:3] <= 1 + 1e-9)).all()
        assert counts["asked"] > 0 and 0 <= counts["overlap filter"] <= 14
    out = tmp_path / "rows.npz"
    assert script.main(["--hands", "2", "--late", "70", "--particles", "4",
                        "--out", str(out)]) == 0
    assert np.load(out)["rows"].shape[1] == len(script.COLUMNS)
    assert "AUC" in capsys.readouterr().out
    for bad in (["--eps", "0"], ["--perturb", "1"]):
        with pytest.raises(SystemExit) as stop:
            script.main(bad)
        assert stop.value.code == 2
        assert "0 < --eps <= 1" in capsys.readouterr().err


def test_auc_counts_ties_as_half(load_script: Callable[[str], ModuleType]) -> None:
    script = load_script("particle_reader")
    labels = np.array([True, False, True, False])
    assert script._auc(labels, np.array([2.0, 1.0, 3.0, 0.0])) == 1.0
    assert script._auc(labels, np.array([0.0, 1.0, 0.0, 2.0])) == 0.0
    assert script._auc(labels, np.ones(4)) == 0.5
