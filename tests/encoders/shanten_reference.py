"""The ``shanten-v1`` planes computed the slow, obvious way: each discard analysed on its own
with :func:`mjenv.shanten.shanten_counts` and :func:`~mjenv.shanten.analyze_counts`, from the
``mjenv-v1`` observation alone. This is how ``mjenv_agents.features`` computed them before the
environment's :class:`~mjenv.encoders.shanten_planes.ShantenPlanes` (shared work across a
hand's discards, a memo) took over; it stays here as the independent reference both are tested
against, so that the fast path is never checked against itself."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mjenv.actions import CHOW_BASE, DISCARD_BASE, PUNG_BASE
from mjenv.encoders.default import HAND, NUM_CHANNELS, S_MELD_COUNT, SCALARS, UNSEEN
from mjenv.shanten import analyze_counts, shanten_counts
from mjenv.tiles import NUM_KINDS

PLANES = 15
_DISCARD_BEST, _DISCARD_PLUS1, _DISCARD_PLUS2, _DISCARD_UKEIRE = 0, 1, 2, 3
_LEVEL = 4  # 5 planes: shanten -1, 0, 1, 2, >= 3
_UKEIRE_NOW = 9
_PUNG_BETTER, _PUNG_SAME, _CHOW_BETTER, _CHOW_SAME = 10, 11, 12, 13
_USEFUL_NOW = 14
_UKEIRE_SCALE = 40.0


def reference_augment(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
                      ) -> npt.NDArray[np.float32]:
    """``obs`` (B, 86, 34) with the 15 reference planes appended: (B, 101, 34)."""
    out = np.zeros((obs.shape[0], NUM_CHANNELS + PLANES, NUM_KINDS), dtype=np.float32)
    out[:, :NUM_CHANNELS] = obs
    for i in range(obs.shape[0]):
        reference_planes(obs[i], mask[i], out[i, NUM_CHANNELS:])
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


def reference_planes(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
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
