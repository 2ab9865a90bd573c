"""``RuleBasedAgent`` (spec ``rule``): a hand-written MCR player that plans toward hands
worth the 8-point minimum.

A greedy shanten player often becomes ready (听牌) on a hand that cannot win: in MCR a win
needs 8 points without flowers. This agent instead values a hand by the *target patterns* it
could still become, and by the exact score of its waits once it is ready.

Decision rules, in order:

1. **Win** whenever the mask allows it (self-drawn, on a discard, robbing a kong).
2. **Discard** (after a draw or an own chow/pung): for every distinct tile, the 13-tile hand
   left is valued (see *Hand value* below), minus a *danger* penalty late in the hand; the
   best is discarded. Ties go to the tile that keeps most useful tiles of the leading plan,
   then to the least connected tile (isolated honours and terminals first).
3. **Kongs** (concealed, added, exposed from a discard) when the hand is worth at least as
   much after it (a kong never breaks a plan it does not feed: seven pairs lose four of a
   kind, chow-based plans lose the tiles).
4. **Claims** (chow, pung): only when the best hand after the claim (and its discard) is
   worth ``claim_margin`` times more than passing *and* the plan it leads to is viable (a
   pattern worth the minimum, or a ready hand whose waits score 8).

Hand value of a 13-tile hand. Each *plan* has a shanten (tiles still lacking) computed on the
tiles it may use, and a weight that stands for its chance to reach 8 points once complete:

=====================  =============================================================  ======
plan                   shanten on                                                     weight
=====================  =============================================================  ======
plain                  the regular shape (four sets and a pair), any fans               low
混一色 Half Flush       one suit and honours (melds must fit)                            0.75
清一色 Full Flush       one suit                                                         1.3
碰碰和 All Pungs        pairs and pungs only (no chow melded)                            0.8
七对 Seven Pairs        concealed pairs                                                  1.2
花龙 Mixed Straight     the 9 tiles 123/456/789 in three suits + the rest as a set+pair  1.0
清龙 Pure Straight      1-9 of one suit + set + pair                                     1.15
三色三同顺 Triple Chow  one chow in each suit + set + pair                               1.0
三色三步高 Shifted      chows n, n+1, n+2 in three suits + set + pair                    0.65
一色三步高 Pure Shifted three chows of one suit, step 1 or 2 + set + pair                 1.1
组合龙 / 全不靠          the knitted shapes (shanten module)                              1.05
=====================  =============================================================  ======

A plan at shanten ``s`` is worth ``weight * decay**s``; the hand's value is its best plan plus
a share of the second best (flexibility). A hand that is ready in any shape is scored exactly:
each winning tile goes through the fan calculator (a discard win, and a self-drawn one), and
the value grows with the unseen copies of the tiles that reach 8 points. A ready hand whose
waits all fall short is worth little (it must change).

Defence: the *threat* grows as the wall empties and when an opponent has many melds (more for
a one-suit meld set, a likely flush); a tile's *danger* is low when every other copy is seen
(none left for a pair wait), for honours, for terminals, and for tiles an opponent has just
discarded; the penalty ``defence * threat * danger`` shrinks as the own hand nears a win.

Options (all keyword arguments, also in a spec: ``"rule decay=0.25 defence=0"``):
``decay`` value kept per shanten step, ``claim_margin`` how much better a claim must make the
hand, ``defence`` weight of the danger penalty (0: never defends), ``flex`` share of the
second-best plan, ``plain_weight`` weight of the plain plan, ``strict`` (raise on an internal
error instead of falling back to a safe legal action).

It reads only its seat's observation (:func:`mjenv_agents.observation.read_observation`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import permutations

import numpy as np
from mypy_extensions import mypyc_attr

from mjenv.actions import (
    ADDED_KONG_BASE,
    CHOW_BASE,
    CONCEALED_KONG_BASE,
    DISCARD_BASE,
    KONG_BASE,
    PASS,
    PUNG_BASE,
    WIN,
    decode_chow,
)
from mjenv.fans import calculate
from mjenv.melds import Meld
from mjenv.shanten import (
    honors_knitted_shanten_counts,
    knitted_straight_shanten_counts,
    regular_shanten_counts,
    seven_pairs_shanten_counts,
    shanten_counts,
)
from mjenv.tiles import EAST, NUM_KINDS

from .observation import Facts, read_observation

T = NUM_KINDS
MeldList = tuple[tuple[str, int], ...]
"""Own melds as (kind, first tile)."""
PlanFn = Callable[[list[int]], "int | None"]
"""A plan's shanten of standing tiles given as 34 counts (None: the plan is impossible)."""
Plan = tuple[str, float, PlanFn]
"""(name, weight, shanten function)."""
Scored = tuple[float, float, float, int, float, bool]
"""A discard scored: (value less penalty, value of the hand it leaves, how much the tile is
worth keeping, the tile, the danger penalty, whether the hand left is viable)."""

# ---------------------------------------------------------------- the plans

# chow-pattern plans: (name, weight, three chow first tiles)
_CHOW_PLANS: list[tuple[str, float, tuple[int, int, int]]] = []
for _p in permutations(range(3)):
    _CHOW_PLANS.append(("mixed_straight", 1.0, (9 * _p[0], 9 * _p[1] + 3, 9 * _p[2] + 6)))
for _s in range(3):
    _CHOW_PLANS.append(("pure_straight", 1.15, (9 * _s, 9 * _s + 3, 9 * _s + 6)))
for _r in range(7):
    _CHOW_PLANS.append(("mixed_triple_chow", 1.0, (_r, 9 + _r, 18 + _r)))
for _p in permutations(range(3)):
    for _r in range(5):
        _CHOW_PLANS.append(("mixed_shifted_chows", 0.65,
                            (9 * _p[0] + _r, 9 * _p[1] + _r + 1, 9 * _p[2] + _r + 2)))
for _s in range(3):
    for _r in range(5):
        _CHOW_PLANS.append(("pure_shifted_chows", 1.1,
                            (9 * _s + _r, 9 * _s + _r + 1, 9 * _s + _r + 2)))
    for _r in range(3):
        _CHOW_PLANS.append(("pure_shifted_chows", 1.1,
                            (9 * _s + _r, 9 * _s + _r + 2, 9 * _s + _r + 4)))

_CHOW_REQ = np.zeros((len(_CHOW_PLANS), NUM_KINDS), dtype=np.int16)
_BY_CHOW: dict[int, list[int]] = {}
for _i, (_n, _w, _cs) in enumerate(_CHOW_PLANS):
    for _x in _cs:
        _CHOW_REQ[_i, _x:_x + 3] += 1
        _BY_CHOW.setdefault(_x, []).append(_i)

_CHOW_ITEMS: list[tuple[tuple[int, int], ...]] = []
"""Per chow plan: the (tile, copies) its three chows take (see :func:`_chow_items`)."""

_KNITTED = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
_KNITTED_TILES = tuple(
    frozenset(9 * p[0] + r for r in _KNITTED[0]) | frozenset(9 * p[1] + r for r in _KNITTED[1])
    | frozenset(9 * p[2] + r for r in _KNITTED[2]) for p in permutations(range(3)))

_SUIT_OF = [t // 9 if t < EAST else 3 for t in range(T)]
_DRAGONS = (31, 32, 33)


def _neighbours(t: int) -> tuple[int, ...]:
    if t >= EAST:
        return ()
    r = t % 9
    return tuple(t + d for d in (-2, -1, 1, 2) if 0 <= r + d <= 8)


_NEAR = [_neighbours(t) for t in range(T)]


def isolated_suited(counts: list[int], t: int) -> bool:
    """Whether ``t`` is a suited kind that the hand (34 counts) neither holds nor holds a tile
    within two ranks of: a copy drawn could join no set or partial set of a regular shape."""
    if t >= EAST or counts[t]:
        return False
    return all(not counts[x] for x in _NEAR[t])


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass it freely
class RuleBasedAgent:
    """See the module docstring."""

    def __init__(self, decay: float = 0.3, claim_margin: float = 1.15, defence: float = 1.0,
                 flex: float = 0.2, plain_weight: float = 0.3, strict: bool = False,
                 seed: int | None = None) -> None:
        self.decay = float(decay)
        self.claim_margin = float(claim_margin)
        self.defence = float(defence)
        self.flex = float(flex)
        self.plain_weight = float(plain_weight)
        self.strict = bool(strict)
        self.seat = 0
        self._facts: Facts | None = None
        self._ready_cache: dict[tuple[tuple[int, ...], MeldList], float] = {}
        self._d = self.decay

    # ------------------------------------------------------------ protocol
    def reset(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat
        self._ready_cache.clear()

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            raise ValueError("no legal action: the mask is all zero")
        if action_mask[WIN]:
            return WIN
        if len(legal) == 1:
            return int(legal[0])
        try:
            return self._decide(observation, [int(a) for a in legal])
        except Exception:
            if self.strict:
                raise
            if action_mask[PASS]:
                return PASS
            return int(legal[-1] if legal[-1] < CHOW_BASE else legal[0])

    # ------------------------------------------------------------ decisions
    def _decide(self, observation: np.ndarray, legal: list[int]) -> int:
        f = read_observation(observation)
        self._facts = f
        if len(self._ready_cache) > 4096:
            self._ready_cache.clear()
        self._d = self.decay if f.tiles_left > 40 else self.decay * 0.8
        counts = list(f.hand)
        melds: MeldList = tuple(f.melds[0])
        if PASS in legal:  # a claim on a discard, or a robbery (no win: passed above)
            return self._claim(f, counts, melds, legal)
        discards = [a - DISCARD_BASE for a in legal if DISCARD_BASE <= a < CHOW_BASE]
        best_tile, best_value = self._own_discard(counts, melds, discards)
        action = DISCARD_BASE + best_tile
        # kongs on an own turn: worth it when the hand keeps its value
        for a in legal:
            if CONCEALED_KONG_BASE <= a < ADDED_KONG_BASE:
                t = a - CONCEALED_KONG_BASE
                c = counts[:]
                c[t] -= 4
                v = self._value13(c, melds + (("concealed_kong", t),))
                if v >= best_value * 0.95:
                    return a
            elif a >= ADDED_KONG_BASE:
                t = a - ADDED_KONG_BASE
                c = counts[:]
                c[t] -= 1
                new = tuple(("added_kong", x) if (k == "pung" and x == t) else (k, x)
                            for k, x in melds)
                v = self._value13(c, new)
                if v >= best_value * 0.95:
                    return a
        return action

    def _claim(self, f: Facts, counts: list[int], melds: MeldList, legal: list[int]) -> int:
        t = f.decision_tile
        if t < 0 or f.decision != "claim":
            return PASS
        base = self._value13(counts, melds)
        best, best_value = PASS, base * self.claim_margin
        for a in legal:
            c = counts[:]
            if CHOW_BASE <= a < PUNG_BASE:
                middle, claimed = decode_chow(a)
                for x in (middle - 1, middle, middle + 1):
                    if x != claimed:
                        c[x] -= 1
                new = melds + (("chow", middle - 1),)
            elif PUNG_BASE <= a < KONG_BASE:
                c[t] -= 2
                new = melds + (("pung", t),)
            elif KONG_BASE <= a < CONCEALED_KONG_BASE:
                c[t] -= 3
                new = melds + (("kong", t),)
                if min(c) < 0:
                    continue
                # a replacement draw follows: a 13-tile hand
                v, ok = self._combine(c, new, self._plans(c, new, top=5))
                if ok and v >= base and v > best_value / self.claim_margin:
                    best, best_value = a, v * self.claim_margin
                continue
            else:
                continue
            if min(c) < 0:
                continue
            discards = [x for x in range(T) if c[x]]
            _, v, ok = self._best_discard(c, new, discards)
            if v > best_value and ok:
                best, best_value = a, v
        return best

    # ------------------------------------------------------------ valuation
    def _own_discard(self, counts: list[int], melds: MeldList, discards: Sequence[int]
                     ) -> tuple[int, float]:
        """The discard of an own turn (after a draw, or an own chow or pung) and the value
        :meth:`_best_discard` gives the hand it leaves (the kongs are measured against it). A
        subclass may choose the tile otherwise (mjenv_agents.lookahead)."""
        tile, value, _ = self._best_discard(counts, melds, discards)
        return tile, value

    def _best_discard(self, counts: list[int], melds: MeldList, discards: Sequence[int]
                      ) -> tuple[int, float, bool]:
        """The discard to make from a 14-form hand, the value it leaves, and whether that
        hand's leading component is viable (:meth:`_combine`)."""
        plans = self._plans(counts, melds, top=5)
        scored = self._scored_discards(counts, melds, discards, plans)
        return self._pick(counts, melds, scored, plans)

    def _scored_discards(self, counts: list[int], melds: MeldList, discards: Sequence[int],
                         plans: list[Plan]) -> list[Scored]:
        """Every distinct discard of a 14-form hand scored (:data:`Scored`), best first: the
        value of the hand it leaves less its danger penalty, then the tiles least worth
        keeping."""
        f = self._facts
        assert f is not None
        threat = self._threat(f)
        values: list[tuple[float, bool, int]] = []
        c = counts
        for t in set(discards):
            c[t] -= 1
            v, viable = self._combine(c, melds, plans)
            c[t] += 1
            values.append((v, viable, t))
        best_v = max(v for v, _, _ in values)
        guard = self.defence * threat * (1.0 - min(1.0, best_v / 0.5))
        out: list[Scored] = []
        for v, viable, t in values:
            pen = guard * self._danger(f, t) * 0.1 if guard > 0 else 0.0
            out.append((v - pen, v, self._keep(counts, t), t, pen, viable))
        out.sort(key=lambda x: (-x[0], x[2], x[3]))
        return out

    def _pick(self, counts: list[int], melds: MeldList, scored: list[Scored],
              plans: list[Plan]) -> tuple[int, float, bool]:
        """The best of :meth:`_scored_discards`, with its value and viability: the leaders
        (within 2 %) are told apart by the useful tiles of the leading plan."""
        lead = scored[0][0]
        close = [x for x in scored[:4] if x[0] >= lead - abs(lead) * 0.02 - 1e-9]
        if len(close) > 1 and plans:
            fn = plans[0][2]
            best = close[0]
            best_u = -1.0
            c = counts
            for x in close:
                t = x[3]
                c[t] -= 1
                u = self._ukeire(c, melds, fn)
                c[t] += 1
                if u > best_u:
                    best, best_u = x, u
            return best[3], best[1], best[5]
        return scored[0][3], scored[0][1], scored[0][5]

    def _keep(self, counts: list[int], t: int) -> float:
        """How much a tile is worth keeping regardless of plans (lower = discard first)."""
        f = self._facts
        assert f is not None
        if t >= EAST:
            k = 0.5 * (counts[t] - 1)
            if t in _DRAGONS or t == EAST + f.seat_wind or t == EAST + f.prevalent_wind:
                k += 0.3
            return k + 0.1 * f.unseen[t]
        r = t % 9
        k = 0.5 * (counts[t] - 1) + (0.6 if 2 <= r <= 6 else 0.3 if r in (1, 7) else 0.0)
        for x in _NEAR[t]:
            if counts[x]:
                k += 0.5
        return k

    def _plans(self, counts: list[int], melds: MeldList, top: int
               ) -> list[Plan]:
        """The plans worth following, best first (valued on the 14-form hand)."""
        vals: list[tuple[float, str, float, PlanFn]] = []
        d = self._d
        for name, w, fn in self._plan_fns(counts, melds):
            s = fn(counts)
            if s is None:
                continue
            vals.append((w * d ** max(s, 0), name, w, fn))
        vals.sort(key=lambda x: -x[0])
        if not vals:
            return []
        cut = vals[0][0] * d * d
        return [(n, w, fn) for v, n, w, fn in vals[:top] if v >= cut]

    def _combine(self, c: list[int], melds: MeldList, plans: list[Plan]
                 ) -> tuple[float, bool]:
        """Value of a 13-form hand over the given plans, and whether its leading component
        is viable (a plan worth the minimum, or a ready hand with waits that score 8)."""
        d = self._d
        best = second = 0.0
        viable = False
        ready = False
        for _name, w, fn in plans:
            s = fn(c)
            if s is None:
                continue
            if s <= 0:
                ready = True
                continue
            v = w * d ** s
            if v > best:
                best, second = v, best
                viable = w >= 0.7
            elif v > second:
                second = v
        if ready:
            r = self._ready_value(c, melds)
            if r > best:
                best, second = r, best
                viable = r > self.plain_weight * self._d
            elif r > second:
                second = r
        return best + self.flex * second, viable

    def _value13(self, c: list[int], melds: MeldList) -> float:
        if min(c) < 0:
            return -1.0
        return self._combine(c, melds, self._plans(c, melds, top=5))[0]

    def _ready_value(self, c: list[int], melds: MeldList) -> float:
        """Value of a ready 13-form hand from the exact scores of its waits."""
        f = self._facts
        assert f is not None
        key = (tuple(c), melds)
        got = self._ready_cache.get(key)
        if got is not None:
            return got
        n = len(melds)
        standing = [t for t in range(T) for _ in range(c[t])]
        meld_objs = [_meld(k, x) for k, x in melds]
        live_d = live_s = 0.0
        pts = 0
        for t in range(T):
            if c[t] >= 4 or f.unseen[t] <= 0:
                continue
            if not (c[t] or t in _CANDIDATE_ALWAYS or any(c[x] for x in _NEAR[t])):
                continue
            c[t] += 1
            done = shanten_counts(c, n) == -1
            c[t] -= 1
            if not done:
                continue
            try:
                r = calculate(standing, meld_objs, t, seat_wind=f.seat_wind,
                              prevalent_wind=f.prevalent_wind)
                if r.meets_minimum:
                    live_d += f.unseen[t]
                    pts = max(pts, r.total)
                    continue
                r = calculate(standing, meld_objs, t, self_drawn=True,
                              seat_wind=f.seat_wind, prevalent_wind=f.prevalent_wind)
                if r.meets_minimum:
                    live_s += f.unseen[t]
            except Exception:
                continue
        eff = live_d + 0.3 * live_s
        if eff <= 0:
            value = self.plain_weight * self._d * 0.5
        else:
            value = eff / (eff + 3.0) * (1.0 + min(pts, 64) / 200.0)
        self._ready_cache[key] = value
        return value

    def _ukeire(self, c: list[int], melds: MeldList, fn: PlanFn) -> float:
        """Unseen copies of the tiles that lower a plan's shanten (13-form hand)."""
        f = self._facts
        assert f is not None
        s0 = fn(c)
        if s0 is None:
            return 0.0
        total = 0.0
        unseen = f.unseen
        for t in range(T):
            u = unseen[t]
            if u <= 0 or c[t] >= 4:
                continue
            if isolated_suited(c, t):
                continue
            c[t] += 1
            s = fn(c)
            c[t] -= 1
            if s is not None and s < s0:
                total += u
        return total

    # ------------------------------------------------------------ plans
    def _plan_fns(self, counts: list[int], melds: MeldList
                  ) -> list[Plan]:
        """(name, weight, shanten function of counts) of the plans the melds allow."""
        f = self._facts
        assert f is not None
        n = len(melds)
        out: list[Plan] = []
        honors_value = 0
        for t in _DRAGONS + (EAST + f.seat_wind, EAST + f.prevalent_wind):
            if counts[t] >= 2:
                honors_value += 1
        for k, x in melds:
            if k != "chow" and (x in _DRAGONS or x == EAST + f.seat_wind
                                or x == EAST + f.prevalent_wind):
                honors_value += 2
        plain_w = min(0.9, self.plain_weight + 0.2 * honors_value + (0.1 if n == 0 else 0.0))
        out.append(("plain", plain_w, lambda c: regular_shanten_counts(c, n)))
        meld_suits = {_SUIT_OF[x] for _, x in melds}
        has_chow = any(k == "chow" for k, _ in melds)
        for s in range(3):
            if meld_suits <= {s, 3}:
                lo, hi = 9 * s, 9 * s + 9
                out.append(("half_flush", 0.75 + 0.1 * min(honors_value, 2),
                            _restrict(lo, hi, True, n)))
                if 3 not in meld_suits:
                    out.append(("full_flush", 1.3, _restrict(lo, hi, False, n)))
        if not has_chow:
            k0 = n
            out.append(("all_pungs", 0.8 + 0.1 * min(honors_value, 2), _pungs(k0)))
        if n == 0:
            out.append(("seven_pairs", 1.2, seven_pairs_shanten_counts))
            if _knitted_near(counts):
                out.append(("honors_knitted", 1.0, honors_knitted_shanten_counts))
        if n <= 1 and _knitted_near(counts):
            out.append(("knitted_straight", 1.05,
                        lambda c: knitted_straight_shanten_counts(c, n)))
        own_chows = [x for k, x in melds if k == "chow"]
        cands: set[int] = set()
        if n <= 1:
            miss = np.maximum(_CHOW_REQ - np.asarray(counts, dtype=np.int16), 0).sum(axis=1)
            cands.update(np.flatnonzero(miss <= 3).tolist())
        for x in own_chows:
            cands.update(_BY_CHOW.get(x, ()))
        for i in sorted(cands):
            name, w, chows = _CHOW_PLANS[i]
            if own_chows:
                fn = _chow_plan(chows, own_chows, n, counts)
            else:  # all three chows to make (n <= 1, missing <= 3): _chow_plan's function
                fn = _chow_fn(_CHOW_ITEMS[i], n + 3)
            if fn is not None:
                out.append((name, w, fn))
        return out

    # ------------------------------------------------------------ defence
    def _threat(self, f: Facts) -> float:
        left = f.tiles_left
        late = 0.0 if left > 60 else (60 - left) / 60
        melded = 0.0
        for r in (1, 2, 3):
            m = f.meld_count[r]
            melded = max(melded, (0.0, 0.1, 0.3, 0.6, 1.0)[min(m, 4)])
        return min(1.5, late + melded)

    def _danger(self, f: Facts, t: int) -> float:
        u = f.unseen[t]
        if t >= EAST:
            d = 0.15 * u
        else:
            r = t % 9
            d = 0.3 + 0.15 * u + (0.0 if r in (0, 8) else 0.2 if r in (1, 7) else 0.35)
        for r in (1, 2, 3):
            if f.last_discards[r] and t in f.last_discards[r][:2]:
                d *= 0.6
            ms = f.melds[r]
            if len(ms) >= 2:
                suits = {_SUIT_OF[x] for _, x in ms}
                if len(suits - {3}) == 1 and (_SUIT_OF[t] in suits or t >= EAST):
                    d *= 1.6
        return d


_CANDIDATE_ALWAYS = frozenset(range(EAST, T)) | frozenset(
    t for t in range(27) if t % 9 in (0, 8))


def _meld(kind: str, x: int) -> Meld:
    if kind == "chow":
        return Meld("chow", (x, x + 1, x + 2), x, 3)
    if kind == "pung":
        return Meld.pung(x, 1)
    if kind == "kong":
        return Meld.kong(x, 1)
    if kind == "added_kong":
        return Meld.added_kong(x, 1)
    return Meld.concealed_kong(x)


def _restrict(lo: int, hi: int, honors: bool, n: int) -> PlanFn:
    def fn(c: list[int]) -> int | None:
        r = [0] * T
        r[lo:hi] = c[lo:hi]
        if honors:
            r[EAST:T] = c[EAST:T]
        return regular_shanten_counts(r, n)
    return fn


def _pungs(k0: int) -> PlanFn:
    def fn(c: list[int]) -> int | None:
        k = k0
        p = 0
        for x in c:
            if x >= 3:
                k += 1
            elif x == 2:
                p += 1
        if k > 4:
            k = 4
        return 8 - 2 * k - min(p, 5 - k)
    return fn


def _knitted_near(c: list[int]) -> bool:
    held = {t for t in range(27) if c[t]}
    best = max(len(held & p) for p in _KNITTED_TILES)
    return best >= 6


def _chow_plan(chows: tuple[int, int, int], own_chows: list[int], n: int,
               counts: list[int]) -> PlanFn | None:
    """Shanten function for three given chows + a set and a pair, or None if hopeless."""
    need = list(chows)
    for x in own_chows:
        if x in need:
            need.remove(x)
    filled = 3 - len(need)
    others = n - filled
    if others > 1:
        return None
    items = _chow_items(need)
    missing = sum(max(0, k - counts[t]) for t, k in items)
    if missing > 3:
        return None
    return _chow_fn(items, others + 3)


def _chow_items(need: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """(tile, copies) the chows starting at ``need`` take, in first-seen order."""
    req: dict[int, int] = {}
    for x in need:
        for t in (x, x + 1, x + 2):
            req[t] = req.get(t, 0) + 1
    return tuple(req.items())


def _chow_fn(items: tuple[tuple[int, int], ...], rest_melds: int) -> PlanFn:
    """The shanten of a chow plan: the tiles ``items`` still to take (the missing ones
    counted), the rest as ``rest_melds`` melds' worth of regular shape."""

    def fn(c: list[int]) -> int | None:
        r = c[:]
        miss = 0
        for t, k in items:
            h = r[t]
            if h >= k:
                r[t] = h - k
            else:
                miss += k - h
                r[t] = 0
        return miss + regular_shanten_counts(r, rest_melds)
    return fn


_CHOW_ITEMS.extend(_chow_items(chows) for _, _, chows in _CHOW_PLANS)
