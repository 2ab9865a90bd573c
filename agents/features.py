"""Hand-analysis planes a policy network can add to its observation (``PolicyConfig.features``).

A network that sees only tiles must learn shanten (how far a hand is from ready) from data, and
2 CPU cores never give it enough. ``shanten-v1`` computes, from the seat's own ``mjenv-v1``
observation and action mask only (no hidden information), what the baselines compute with
:mod:`mjenv.shanten`, as 15 extra planes over the 34 tile kinds:

==========  ===================================================================================
plane       content
==========  ===================================================================================
0           discard decisions: discarding this tile keeps the best shanten
1, 2        ... raises it by one / by two or more
3           ... unseen useful tiles after discarding it / 40 (tiles of plane 0 only)
4-8         the hand's shanten (after the best discard at a discard decision), one-hot over
            -1 (complete), 0 (ready), 1, 2, 3 or more, broadcast over all tiles
9           at a claim decision: unseen useful tiles of the hand now / 40, broadcast
10, 11      a legal pung of this tile lowers / keeps the shanten (after the best discard)
12, 13      a legal chow whose lowest tile is this one lowers / keeps it
14          at a claim decision: the tiles that would lower the hand's shanten
==========  ===================================================================================

"Unseen" is the observation's own unseen count (plane 8). Roughly 0.3-1 ms a decision in pure
Python (``mjenv.shanten`` is compiled); :func:`augment` does a batch.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mjenv.actions import CHOW_BASE, DISCARD_BASE, PUNG_BASE
from mjenv.encoders.default import HAND, NUM_CHANNELS, S_MELD_COUNT, SCALARS, UNSEEN
from mjenv.shanten import analyze_counts, shanten_counts
from mjenv.tiles import NUM_KINDS

FEATURE_PLANES = {"none": 0, "shanten-v1": 15}
"""Feature sets by name -> the number of planes they add."""

_DISCARD_BEST, _DISCARD_PLUS1, _DISCARD_PLUS2, _DISCARD_UKEIRE = 0, 1, 2, 3
_LEVEL = 4  # 5 planes: shanten -1, 0, 1, 2, >= 3
_UKEIRE_NOW = 9
_PUNG_BETTER, _PUNG_SAME, _CHOW_BETTER, _CHOW_SAME = 10, 11, 12, 13
_USEFUL_NOW = 14
_UKEIRE_SCALE = 40.0


def feature_planes(name: str) -> int:
    """The number of planes feature set ``name`` adds; ValueError for an unknown one."""
    if name not in FEATURE_PLANES:
        raise ValueError(f"unknown feature set {name!r}; known: {sorted(FEATURE_PLANES)}")
    return FEATURE_PLANES[name]


def augment(name: str, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
            ) -> npt.NDArray[np.float32]:
    """``obs`` (B, 86, 34) with feature set ``name``'s planes appended: (B, 86 + k, 34).
    ``mask`` (B, 235) is each row's legal-action mask."""
    k = feature_planes(name)
    if k == 0:
        return obs
    if obs.ndim != 3 or obs.shape[1:] != (NUM_CHANNELS, NUM_KINDS):
        raise ValueError(f"obs must be (B, {NUM_CHANNELS}, {NUM_KINDS}), got {obs.shape}")
    out = np.zeros((obs.shape[0], NUM_CHANNELS + k, NUM_KINDS), dtype=np.float32)
    out[:, :NUM_CHANNELS] = obs
    for i in range(obs.shape[0]):
        shanten_planes(obs[i], mask[i], out[i, NUM_CHANNELS:])
    return out


def _level(planes: npt.NDArray[np.float32], shanten: int) -> None:
    planes[_LEVEL + min(max(shanten, -1), 3) + 1, :] = 1.0


def _best_after_claim(counts: list[int], n_melds: int, taken: tuple[int, int]) -> int:
    """Shanten after melding ``taken`` (two tiles of the hand) and the best discard."""
    counts[taken[0]] -= 1
    counts[taken[1]] -= 1
    best = 99
    for t in range(NUM_KINDS):
        if counts[t]:
            counts[t] -= 1
            s = shanten_counts(counts, n_melds + 1)
            counts[t] += 1
            if s < best:
                best = s
    counts[taken[0]] += 1
    counts[taken[1]] += 1
    return best


def shanten_planes(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
                   planes: npt.NDArray[np.float32]) -> None:
    """Fill ``planes`` (15, 34), zeroed, for one decision (see the module docstring)."""
    hand = np.rint(obs[HAND:HAND + 4].sum(axis=0)).astype(int).tolist()
    unseen = np.rint(obs[UNSEEN] * 4).astype(int).tolist()
    n_melds = int(round(float(obs[SCALARS, S_MELD_COUNT]) * 4))
    if not any(hand):
        return
    if mask[DISCARD_BASE:DISCARD_BASE + NUM_KINDS].any():  # 14 tiles: which discard
        after = {}
        for t in range(NUM_KINDS):
            if hand[t]:
                hand[t] -= 1
                after[t] = shanten_counts(hand, n_melds)
                hand[t] += 1
        best = min(after.values())
        for t, s in after.items():
            gap = s - best
            planes[_DISCARD_BEST if gap == 0 else _DISCARD_PLUS1 if gap == 1
                   else _DISCARD_PLUS2, t] = 1.0
            if gap == 0:
                hand[t] -= 1
                useful = analyze_counts(hand, n_melds).useful
                hand[t] += 1
                planes[_DISCARD_UKEIRE, t] = min(1.0, sum(unseen[u] for u in useful)
                                                 / _UKEIRE_SCALE)
        _level(planes, best)
        return
    # a claim (or robbing) decision: 13 tiles and somebody else's tile
    now = analyze_counts(hand, n_melds)
    _level(planes, now.shanten)
    planes[_UKEIRE_NOW, :] = min(1.0, sum(unseen[u] for u in now.useful) / _UKEIRE_SCALE)
    for u in now.useful:
        planes[_USEFUL_NOW, u] = 1.0
    for a in np.flatnonzero(mask[PUNG_BASE:PUNG_BASE + NUM_KINDS]):
        t = int(a)
        s = _best_after_claim(hand, n_melds, (t, t))
        if s <= now.shanten:
            planes[_PUNG_BETTER if s < now.shanten else _PUNG_SAME, t] = 1.0
    for a in np.flatnonzero(mask[CHOW_BASE:PUNG_BASE]):
        suit, rest = divmod(int(a), 21)
        middle, claimed = divmod(rest, 3)  # middle rank - 2, claimed rank - middle + 1
        low = suit * 9 + middle  # tile id of the chow's lowest tile
        chow = (low, low + 1, low + 2)
        claimed_tile = low + claimed
        taken = tuple(t for t in chow if t != claimed_tile)
        s = _best_after_claim(hand, n_melds, (taken[0], taken[1]))
        if s <= now.shanten:
            planes[_CHOW_BETTER if s < now.shanten else _CHOW_SAME, low] = 1.0
