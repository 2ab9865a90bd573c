"""The behaviour-cloning data set: generation and its file format (mjenv_agents.train.dataset)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mjenv_agents.train import dataset as ds


@pytest.fixture(scope="module")
def data() -> ds.Dataset:
    return ds.generate(hands=3, seed=5)


def test_workers_do_not_change_the_data(data: ds.Dataset) -> None:
    two = ds.generate(hands=3, seed=5, workers=2)
    assert np.array_equal(two.obs, data.obs) and np.array_equal(two.mask, data.mask)
    assert np.array_equal(two.action, data.action)


def test_save_load_round_trip(tmp_path: Path, data: ds.Dataset) -> None:
    path = tmp_path / "d.npz"
    ds.save(path, data, {"teacher": "rule", "rules": "mcr", "seed": 5, "hands": 3})
    back, meta = ds.load(path)
    assert np.array_equal(back.obs, data.obs) and np.array_equal(back.mask, data.mask)
    assert np.array_equal(back.action, data.action) and back.action.dtype == np.int64
    assert meta["format"] == "mjenv-bc-dataset" and meta["version"] == 1
    assert meta["hands"] == 3 and meta["encoder"] == "mjenv-v1"
    raw = np.load(path)  # readable without our code
    assert raw["mask"].shape == (len(data), 30) and raw["action"].dtype == np.int16
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left


def test_bad_files_are_refused(tmp_path: Path, data: ds.Dataset) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="cannot read"):
        ds.load(junk)
    with pytest.raises(ValueError, match="cannot read"):
        ds.load(tmp_path / "missing.npz")
    other = tmp_path / "other.npz"
    np.savez(other, obs=data.obs, mask=np.packbits(data.mask, axis=1), action=data.action,
             meta=np.array(json.dumps({"format": "something-else", "version": 1})))
    with pytest.raises(ValueError, match="format 'something-else'"):
        ds.load(other)
    wrong = tmp_path / "wrong.npz"
    action = data.action.copy()
    action[0] = 234 if not data.mask[0, 234] else 233
    np.savez(wrong, obs=data.obs, mask=np.packbits(data.mask, axis=1), action=action,
             meta=np.array(json.dumps({"format": "mjenv-bc-dataset", "version": 1})))
    with pytest.raises(ValueError, match="outside its mask"):
        ds.load(wrong)
