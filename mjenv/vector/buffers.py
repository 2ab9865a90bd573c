"""The batch's arrays, allocated once: in this process, or in memory shared with workers.

Why: a batch returns observations, masks, rewards and flags for N games at every step; writing
them into arrays made once (each game into its own row) costs no allocation per step, and with
worker processes the same rows are the workers' output, so nothing is copied or pickled on the
way back. Shared arrays are ``multiprocessing.sharedctypes.RawArray``\\s: anonymous memory
handed to the workers when they start (by file descriptor), freed when the last process lets
go of it — no named segment to leak, no resource tracker involved.
"""

from __future__ import annotations

from dataclasses import dataclass
from multiprocessing.sharedctypes import RawArray
from typing import Any

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True)
class ArraySpec:
    """One array of the batch: a row of ``shape`` and ``dtype`` per game."""

    name: str
    shape: tuple[int, ...]
    dtype: str

    def nbytes(self, n: int) -> int:
        return n * int(np.prod(self.shape, dtype=np.int64)) * np.dtype(self.dtype).itemsize


Arrays = dict[str, npt.NDArray[Any]]


def allocate(specs: list[ArraySpec], n: int, shared: bool) -> tuple[Arrays, list[Any]]:
    """The arrays of ``n`` games, zeroed, and (``shared``) the raw shared blocks behind them,
    in ``specs`` order, for :func:`attach` in a worker."""
    if not shared:
        return {s.name: np.zeros((n, *s.shape), dtype=s.dtype) for s in specs}, []
    raws = [RawArray("b", max(s.nbytes(n), 1)) for s in specs]
    return attach(specs, raws, n), raws


def attach(specs: list[ArraySpec], raws: list[Any], n: int) -> Arrays:
    """Numpy views of the shared blocks ``raws`` (from :func:`allocate`)."""
    out: Arrays = {}
    for spec, raw in zip(specs, raws, strict=True):
        count = n * int(np.prod(spec.shape, dtype=np.int64))
        flat = np.frombuffer(raw, dtype=spec.dtype, count=count)
        out[spec.name] = flat.reshape((n, *spec.shape))
    return out


def rows(arrays: Arrays, lo: int, hi: int) -> Arrays:
    """The rows ``lo:hi`` of every array (views)."""
    return {name: a[lo:hi] for name, a in arrays.items()}


def bytes_per_game(specs: list[ArraySpec]) -> int:
    """The batch arrays' bytes for one game."""
    return sum(s.nbytes(1) for s in specs)
