"""Counts into float32 rows (mjenv.vector.scaling, mjenv/_rows.c): the C pass writes the
bits numpy's cast, multiply and divide write, aligned or not, and refuses what it cannot
read in one line."""

from __future__ import annotations

import numpy as np
import pytest

import mjenv.engine.game as game_module
import mjenv.vector.scaling as scaling
from mjenv.encoders import make_encoder


def _reference(counts: np.ndarray, scale: np.ndarray, divisor: np.ndarray | None) -> np.ndarray:
    out = counts.astype(np.float32)
    s = len(scale)
    out[:, :s] *= scale
    if divisor is not None:
        out[:, s:] /= divisor
    return out


def _factors(name: str) -> tuple[np.ndarray, np.ndarray | None]:
    encoder = make_encoder(name)
    return encoder.count_scale(), encoder.count_divisor()


@pytest.mark.parametrize("name", ["mjenv-v1", "mjenv-v1+shanten"])
@pytest.mark.parametrize("n", [1, 3, 33])
@pytest.mark.parametrize("offset", [0, 1, 3])
def test_the_rows_are_numpys_bit_for_bit(name: str, n: int, offset: int) -> None:
    scale, divisor = _factors(name)
    shape = make_encoder(name).shape
    counts = np.random.default_rng(n).integers(0, 256, (n, *shape), dtype=np.uint8)
    cells = counts[0].size
    room = np.full(n * cells + offset, np.nan, dtype=np.float32)  # offset: a misaligned start
    out = room[offset:].reshape(n, *shape)
    scaling.counts_to_float(counts, scale, divisor, out)
    assert np.array_equal(out.view(np.uint32), _reference(counts, scale, divisor).view(np.uint32))
    assert np.isnan(room[:offset]).all()  # nothing written before the rows


def test_arrays_that_are_not_contiguous_take_numpys_way() -> None:
    scale, divisor = _factors("mjenv-v1+shanten")
    counts = np.random.default_rng(0).integers(0, 9, (6, 101, 34), dtype=np.uint8)
    out = np.zeros((12, 101, 34), dtype=np.float32)[::2]
    scaling.counts_to_float(counts[::-1], scale, divisor, out)
    assert np.array_equal(out, _reference(counts[::-1], scale, divisor))


def test_a_compiled_engine_comes_with_the_c_rows() -> None:
    if not (game_module.__file__ or "").endswith(".so"):
        pytest.skip("the plain-Python install: numpy writes the rows there")
    assert scaling.native is not None


def test_the_c_pass_refuses_what_does_not_fit_in_one_line() -> None:
    c = pytest.importorskip("mjenv._rows")
    scale, _ = _factors("mjenv-v1")
    counts = np.zeros((2, 86, 34), dtype=np.uint8)
    good = np.zeros((2, 86, 34), dtype=np.float32)
    bad = [(counts.astype(np.int16), scale, None, good), (counts, scale, None, good[:1]),
           (counts, scale.astype(np.float64), None, good), (counts, scale, None, good[:, ::2]),
           (counts, scale, None, np.zeros((2, 86, 34), dtype=np.float32)[::-1].copy()[:, :43]),
           (counts, scale, scale[:2], good), (counts, scale, None, b"x" * 100)]
    for args in bad:
        with pytest.raises(ValueError, match="^scale_counts: ") as err:
            c.scale_counts(*args)
        assert "\n" not in str(err.value)
    with pytest.raises(TypeError):
        c.scale_counts(counts, scale, None)
    read_only = good.copy()
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="out must be a C-contiguous array"):
        c.scale_counts(counts, scale, None, read_only)
