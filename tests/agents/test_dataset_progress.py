"""Generating behaviour-cloning data shows a progress bar (issue 14: the demo's data step ran
for minutes without a word), and the bar changes nothing in the data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mjenv_agents.train import dataset as ds


@pytest.mark.parametrize("workers", [1, 2])
def test_the_bar_counts_hands_and_the_data_are_the_same(
        workers: int, capsys: pytest.CaptureFixture[str]) -> None:
    shown = ds.generate(hands=3, seed=5, workers=workers, progress=True)
    err = capsys.readouterr().err
    assert "BC data" in err and "3/3" in err and "hand" in err, err
    quiet = ds.generate(hands=3, seed=5, workers=workers, progress=False)
    assert capsys.readouterr().err == ""
    assert np.array_equal(shown.action, quiet.action) and np.array_equal(shown.obs, quiet.obs)


def test_off_a_terminal_the_default_is_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    ds.generate(hands=1, seed=5)  # stderr captured: not a terminal
    assert capsys.readouterr().err == ""


def test_a_meta_entry_that_is_not_json_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "d.npz"
    np.savez(path, obs=np.zeros((0, 1)), mask=np.zeros((0, 30), np.uint8),
             action=np.zeros(0, np.int16), meta=np.array("[" * 1000))
    with pytest.raises(ValueError, match="meta entry is not JSON: nested deeper"):
        ds.load(path)
    np.savez(path, obs=np.zeros((0, 1)), mask=np.zeros((0, 30), np.uint8),
             action=np.zeros(0, np.int16), meta=np.array("[1]"))
    with pytest.raises(ValueError, match="not a JSON object"):
        ds.load(path)
