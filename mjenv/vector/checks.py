"""Checks of what the caller hands a batch: counts, and one action per game.

Why apart: both batch classes check their arguments the same way before any game moves, in
the parent process (a worker never sees a step the parent refused).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from mjenv.actions import NUM_ACTIONS


def check_count(name: str, value: object, minimum: int) -> int:
    """``value`` as an int of at least ``minimum`` (not a bool); ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value!r}")
    return value


def check_actions(actions: Any, masks: np.ndarray, live: np.ndarray | None = None,
                  ) -> tuple[np.ndarray, list[int]]:
    """``actions`` as an int64 array of one action per game, and the games whose action is
    illegal (outside 0..234 or not in the game's mask); ``live`` (bool per game) leaves the
    others out of the check. ValueError when the shape or type is wrong."""
    n = len(masks)
    arr = np.asarray(actions)
    if arr.shape != (n,) or arr.dtype.kind not in "iu":
        raise ValueError(f"actions must be {n} integer action ids (one per game), got "
                         f"{arr.dtype} of shape {arr.shape}")
    if arr.dtype != np.int64:
        arr = arr.astype(np.int64)
    flat = masks.reshape(-1)
    if n <= _SMALL_BATCH:  # a few numpy scalar reads beat the vectorised check's fixed cost
        bad = [i for i, a in enumerate(arr.tolist())
               if not (0 <= a < NUM_ACTIONS and flat[i * NUM_ACTIONS + a])]
    else:
        inside = (arr >= 0) & (arr < NUM_ACTIONS)
        at = np.arange(n) * NUM_ACTIONS + np.where(inside, arr, 0)
        bad = np.flatnonzero(~inside | (flat[at] == 0)).tolist()
    if live is not None and bad:
        bad = [i for i in bad if live[i]]
    return arr, bad


_SMALL_BATCH = 32


def handle_illegal(bad: list[int], actions: np.ndarray, masks: np.ndarray, illegal: str,
                   who: str, stacklevel: int = 3) -> None:
    """What the batch does about the games ``bad`` whose action is illegal, before any game
    moves: ``illegal="raise"``, a ValueError naming the first (its action and legal actions)
    and the others; ``"penalize"``, one warning (the shards penalize those seats)."""
    if not bad:
        return
    more = f"{bad[:10]}{' ...' if len(bad) > 10 else ''}"
    if illegal == "raise":
        first = bad[0]
        legal = np.flatnonzero(masks[first]).tolist()
        raise ValueError(f"illegal action {int(actions[first])} {who} in game {first} (legal "
                         f"{legal}); illegal in games {more}; no game moved")
    warnings.warn(f"illegal actions {who} in games {more}: those hands end with the penalty",
                  stacklevel=stacklevel)
