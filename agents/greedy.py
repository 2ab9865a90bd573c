"""``GreedyShantenAgent`` (spec ``greedy``): plays toward the nearest ready hand.

It reads only its observation (decoded by :func:`mjenv_agents.observation.read_observation`) and the
legal-action mask, and measures every option by the shanten of the hand it leaves
(:func:`mjenv.shanten.shanten_counts`, the best of all MCR shapes), with no idea of points:

1. **Win** whenever the mask allows it (self-drawn, on a discard, robbing a kong). With the
   env's ``false_win="penalize"`` the Win bit is set at every decision, so the agent also
   checks that the hand is complete (shanten -1) first, and with ``check_points=True`` that
   :func:`mjenv.fans.calculate` gives it the 8-point minimum (from what the observation shows:
   the fans of the last copy, the last tile and kongs are not counted, so a win worth 8 only
   with them is not declared). Leave ``check_points`` off with the default ``"mask"`` mode,
   where the bit alone means the win is legal.
2. **Discard** (after a draw, or after an own chow or pung): the tile leaving the lowest
   shanten; ties go to the discard keeping the most unseen copies of useful tiles (kinds that
   would lower the shanten, counted with the observation's ``unseen`` plane; see
   :func:`mjenv.shanten.analyze_counts`), then to the first tile of a fixed preference order
   (:func:`discard_preference`: lone winds that score nothing first, then the other honours,
   terminals, 2s and 8s, middle tiles; tile id last).
3. **Concealed and added kongs** (own turn) when the shanten after the kong (and its
   replacement draw to come) is not worse than after the best discard (``kongs=False``: never).
4. **Claims** on a discard (chow, pung, exposed kong) only when the shanten after the claim
   and its best discard is lower than now (``claim_margin``: by at least that much, default
   1); among several, the lowest shanten, then kong, pung, chow, then action id. Else Pass.
5. **Robbing window**: Win when allowed, else Pass.

Deterministic: the same observation and mask always give the same action; ``seed`` and
:meth:`reset`'s seed are accepted for the agent protocol and change nothing.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mjenv.shanten import analyze_counts, discard_outcomes, shanten_counts
from mjenv.tiles import NUM_KINDS

from .observation import (
    ADDED_KONG_BASE,
    CHOW_BASE,
    CONCEALED_KONG_BASE,
    DISCARD_BASE,
    KONG_BASE,
    PASS,
    PUNG_BASE,
    WIN,
    Facts,
    decode_chow,
    read_observation,
)

T = NUM_KINDS


def discard_preference(t: int, seat_wind: int, prevalent_wind: int) -> int:
    """Lower is discarded first on a tie: 0 a wind that is neither the seat's nor the
    prevalent one, 1 the other honours (value winds, dragons), 2 terminals, 3 twos and eights,
    4 the middle tiles 3..7."""
    if t >= 27:
        if t < 31 and t - 27 not in (seat_wind, prevalent_wind):
            return 0
        return 1
    rank = t % 9
    if rank in (0, 8):
        return 2
    if rank in (1, 7):
        return 3
    return 4


def _meets_minimum(f: Facts) -> bool:
    """Whether the complete hand (with the decision tile) scores the 8-point minimum, from
    the observation alone (see the module docstring)."""
    from mjenv.fans import calculate
    from mjenv.melds import Meld

    melds = []
    for kind, t in f.melds[0]:
        if kind == "chow":
            melds.append(Meld.chow(t))
        elif kind == "concealed_kong":
            melds.append(Meld.concealed_kong(t))
        else:
            melds.append(getattr(Meld, kind)(t))
    hand = [t for t in range(T) for _ in range(f.hand[t])]
    self_drawn = f.decision == "draw"
    win_tile = f.decision_tile
    if self_drawn:
        hand.remove(win_tile)
    try:
        result = calculate(hand, melds, win_tile, self_drawn=self_drawn,
                           seat_wind=f.seat_wind, prevalent_wind=f.prevalent_wind,
                           flowers=min(f.flowers[0], 8))
    except ValueError:
        return False
    return bool(result.meets_minimum)


class GreedyShantenAgent:
    """See the module docstring. Options (also as spec options, ``"greedy claim_margin=2"``):

    ``claims``
        claim chows, pungs and exposed kongs at all (default True).
    ``kongs``
        declare concealed and added kongs (default True).
    ``claim_margin``
        how much a claim must lower the shanten (default 1).
    ``useful_ties``
        break discard ties by the unseen useful tiles (default True; False: preference
        order only, a fifth faster).
    ``check_points``
        declare a Win only if it also reaches 8 points by :func:`mjenv.fans.calculate`
        (default False; for ``false_win="penalize"``, see the module docstring).
    ``seed``
        accepted for the protocol; the agent is deterministic.
    """

    def __init__(self, claims: bool = True, kongs: bool = True, claim_margin: int = 1,
                 useful_ties: bool = True, check_points: bool = False,
                 seed: int | None = None) -> None:
        if not isinstance(claim_margin, int) or claim_margin < 1:
            raise ValueError(f"claim_margin must be an int >= 1, got {claim_margin!r}")
        self.claims = bool(claims)
        self.kongs = bool(kongs)
        self.claim_margin = claim_margin
        self.useful_ties = bool(useful_ties)
        self.check_points = bool(check_points)
        self.seed = seed
        self.seat = 0

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat

    # ---------------------------------------------------------------- the decision
    def act(self, observation: npt.NDArray[np.floating],
            action_mask: npt.NDArray[np.integer]) -> int:
        legal = np.flatnonzero(action_mask).tolist()
        if not legal:
            raise ValueError("no legal action: the mask is all zero")
        if len(legal) == 1:
            return int(legal[0])
        f = read_observation(observation)
        if action_mask[WIN] and f.decision != "after_claim" and self._complete(f) and \
                (not self.check_points or _meets_minimum(f)):
            return WIN
        if f.decision == "claim":
            return self._claim(f, legal)
        if f.decision == "rob":
            return PASS if action_mask[PASS] else self._fallback(legal)
        # own turn: after a draw, or after an own chow or pung
        discards = [a - DISCARD_BASE for a in legal if DISCARD_BASE <= a < CHOW_BASE]
        if not discards:
            return self._fallback(legal)
        tile, after = self.best_discard(f.hand, f.n_melds, discards, f)
        if self.kongs and f.decision == "draw":
            kong = self._own_kong(f, legal, after)
            if kong is not None:
                return kong
        return DISCARD_BASE + tile

    @staticmethod
    def _fallback(legal: list[int]) -> int:
        """Pass if legal, else the lowest legal action (never reached with the env's masks)."""
        return PASS if PASS in legal else int(legal[0])

    @staticmethod
    def _complete(f: Facts) -> bool:
        counts = f.hand
        if f.decision in ("claim", "rob") and f.decision_tile >= 0:
            counts = counts[:]
            counts[f.decision_tile] += 1
        if sum(counts) % 3 != 2:
            return False
        return shanten_counts(counts, f.n_melds) == -1

    # ---------------------------------------------------------------- discards
    def best_discard(self, hand: list[int], n_melds: int, candidates: list[int],
                     f: Facts) -> tuple[int, int]:
        """(tile, shanten left) of the best discard among ``candidates`` from the 14-form
        ``hand`` (34 counts) with ``n_melds`` melds; ``f`` gives the unseen counts and winds.

        One :func:`~mjenv.shanten.discard_outcomes` call gives the shanten after every discard
        and the useful tiles after each best one, sharing the hand's analysis across its
        discards (about a quarter of the cost of one shanten and one analysis per discard,
        with the same values)."""
        after, useful_after = discard_outcomes(hand, n_melds, self.useful_ties)
        shanten_of = dict(after)
        best = min(shanten_of[t] for t in candidates)
        ties = [t for t in candidates if shanten_of[t] == best]
        if len(ties) > 1 and self.useful_ties:
            # the useful tiles come for the discards at the best shanten of all held kinds,
            # which is ``best`` whenever every held kind may be discarded (always in MCR)
            useful_of = dict(useful_after)
            unseen = f.unseen
            top = -1
            kept: list[int] = []
            for t in ties:
                useful = useful_of.get(t)
                if useful is None:  # a best held kind is not a candidate: analyse this one
                    counts = hand[:]
                    counts[t] -= 1
                    useful = analyze_counts(counts, n_melds).useful
                n = sum(unseen[u] for u in useful)
                if n > top:
                    top, kept = n, [t]
                elif n == top:
                    kept.append(t)
            ties = kept
        sw, pw = f.seat_wind, f.prevalent_wind
        tile = min(ties, key=lambda t: (discard_preference(t, sw, pw), t))
        return tile, best

    # ---------------------------------------------------------------- kongs on own turn
    def _own_kong(self, f: Facts, legal: list[int], discard_shanten: int) -> int | None:
        """A concealed or added kong whose 13-form hand (before the replacement draw) is not
        worse than the best discard; the first such in id order."""
        for a in legal:
            if CONCEALED_KONG_BASE <= a < ADDED_KONG_BASE:
                t, take, melds = a - CONCEALED_KONG_BASE, 4, f.n_melds + 1
            elif a >= ADDED_KONG_BASE:
                t, take, melds = a - ADDED_KONG_BASE, 1, f.n_melds
            else:
                continue
            counts = f.hand[:]
            counts[t] -= take
            if shanten_counts(counts, melds) <= discard_shanten:
                return int(a)
        return None

    # ---------------------------------------------------------------- claims
    def _claim(self, f: Facts, legal: list[int]) -> int:
        if not self.claims or PASS not in legal:
            return self._fallback(legal)
        now = shanten_counts(f.hand, f.n_melds)
        x = f.decision_tile
        best: tuple[int, int, int] | None = None  # (shanten, kind rank, action)
        for a in legal:
            if a < CHOW_BASE or a >= CONCEALED_KONG_BASE:
                continue
            counts = f.hand[:]
            if a < PUNG_BASE:  # chow: the two other tiles leave the hand; 14-form after
                middle, claimed = decode_chow(a)
                for u in (middle - 1, middle, middle + 1):
                    if u != claimed:
                        counts[u] -= 1
                rank = 2
            elif a < KONG_BASE:  # pung: two copies leave; 14-form after
                counts[x] -= 2
                rank = 1
            else:  # exposed kong: three copies leave; 13-form, a replacement draw comes
                counts[x] -= 3
                rank = 0
            # the shanten of a 14-form hand is that after its best discard
            s = shanten_counts(counts, f.n_melds + 1)
            key = (s, rank, a)
            if best is None or key < best:
                best = key
        if best is not None and best[0] <= now - self.claim_margin:
            return int(best[2])
        return PASS
