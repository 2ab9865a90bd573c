"""Targeted hands: one recipe per entry of the fan table, so that rare fans appear in a test set.

Random hands almost never hold 九莲宝灯 or 四杠; the differential test against PyMahjongGB
needs every one of the 82 entries (the 81 fans and the 明暗杠 extension) often enough to
compare. :data:`RECIPES` maps each fan id of :data:`mjenv.fans.table.FANS` to a small function
that builds a complete hand with the fan's pattern in it, with the machinery of
:mod:`mjenv.testing.generate`; :func:`targeted_hand` runs it. A recipe is registered under the
fan's English name (checked against the table when this module loads), so a renamed or
missing entry fails at import or in ``tests/testing/test_recipes.py``.

The pattern is present but a higher reading of the same tiles may still absorb the fan now and
then (a 一色三同顺 recipe may come out as 一色四同顺); tests ask for the fan in most hands of a
recipe, not in all.

Reproducibility: before every attempt :func:`targeted_hand` draws a suit, an order of the three
suits and a random set sampler (:class:`Draws`), whether the recipe uses them or not, and then
the recipe draws its own choices. Keep that order: ``sample_hands`` mixes targeted hands into
samples whose seeds tests and benchmarks pin.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from mjenv.decompose import HONORS, ORPHANS
from mjenv.fans.table import FAN_BY_EN, FAN_BY_ZH, FANS, Fan
from mjenv.melds import CHOW, CONCEALED_KONG, PUNG
from mjenv.testing.generate import (
    DRAGONS,
    GREEN,
    HAND,
    REVERSIBLE,
    SUITED,
    TERMINALS,
    WINDS,
    C,
    P,
    SetSampler,
    SetSpec,
    WinningHand,
    build_honors_knitted,
    build_knitted_straight,
    build_nine_gates,
    build_regular,
    build_seven_pairs,
    build_thirteen_orphans,
    chows_within,
    counts_of,
    random_fill,
    random_style,
    sampler,
    st,
)
from mjenv.tiles import EAST, NUM_KINDS, RED
from mjenv.tiles import GREEN as GREEN_DRAGON

FAN_NAMES: tuple[str, ...] = tuple(fan.zh for fan in FANS)
"""The 82 entries in table order (ids 1..82): the 81 fans and the 明暗杠 extension."""


@dataclass(frozen=True)
class Draws:
    """The choices drawn before every attempt of every recipe (see the module docstring)."""

    suit: int
    """A random suit (0 W, 1 T, 2 B), for the fans of one suit."""
    suits: tuple[int, int, int]
    """The three suits in a random order, for the fans of two or three suits."""
    fill: SetSampler
    """Sets of a random style, for the sets a recipe leaves free."""


Recipe = Callable[[np.random.Generator, Draws], WinningHand | None]
"""Builds one hand exhibiting a fan, or None when this attempt failed (the caller retries)."""

RECIPES: dict[int, Recipe] = {}
"""Fan id (1..82) -> its recipe; every entry of the fan table has one."""


def recipe(*names: str) -> Callable[[Recipe], Recipe]:
    """Register the decorated function as the recipe of the fans with these English names."""

    def register(build: Recipe) -> Recipe:
        for name in names:
            fan_id = FAN_BY_EN[name].id  # a KeyError here: the name is not in the table
            if fan_id in RECIPES:
                raise ValueError(f"two recipes for {name}")
            RECIPES[fan_id] = build
        return build

    return register


def _fan(fan: int | str) -> Fan:
    """The table entry named by a fan id, a Chinese name or an English name."""
    if isinstance(fan, int):
        if 1 <= fan <= len(FANS):
            return FANS[fan - 1]
    elif fan in FAN_BY_ZH:
        return FAN_BY_ZH[fan]
    elif fan in FAN_BY_EN:
        return FAN_BY_EN[fan]
    raise ValueError(f"unknown fan {fan!r}")


def draws(rng: np.random.Generator) -> Draws:
    """The common draws of one attempt, in their fixed order: suit, order of suits, sampler."""
    suit = int(rng.integers(3))
    p = rng.permutation(3)
    return Draws(suit, (int(p[0]), int(p[1]), int(p[2])), random_fill(rng))


def targeted_hand(rng: np.random.Generator, fan: int | str) -> WinningHand:
    """A valid complete hand built to contain ``fan`` (an id, or a Chinese or English name).

    The hand's ``target`` is the fan's Chinese name. The hand is constructed so that the fan's
    pattern is present; a higher reading of the same tiles may still absorb it occasionally."""
    entry = _fan(fan)
    build = RECIPES[entry.id]
    for _ in range(200):
        hand = build(rng, draws(rng))
        if hand is not None:
            return replace(hand, target=entry.zh)
    raise RuntimeError(f"could not build a hand for {entry.zh}")  # pragma: no cover


# --------------------------------------------------------------------------- helpers


def _suited_ranks(ranks: Sequence[int], suits: Sequence[int] = (0, 1, 2)) -> list[int]:
    return [st(s, r) for s in suits for r in ranks]


def _four_pungs(rng: np.random.Generator, tiles: Sequence[int], k: int = 4) -> list[SetSpec]:
    """``k`` pungs of distinct tiles drawn from ``tiles``."""
    return [P(int(t)) for t in rng.choice(tiles, size=k, replace=False)]


def _any_pungs(rng: np.random.Generator, k: int = 4) -> list[SetSpec]:
    return _four_pungs(rng, range(NUM_KINDS), k)


def _chows_related(lows: Sequence[int]) -> bool:
    """Whether any chow fan (pair or triple) can be formed by the chows."""
    n = len(lows)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = lows[i], lows[j]
            if a % 9 == b % 9:
                return True
            if a // 9 == b // 9 and abs(a - b) in (3, 6):
                return True
    for i in range(n):
        for j in range(n):
            for k in range(n):
                if len({i, j, k}) < 3:
                    continue
                a, b, c = lows[i], lows[j], lows[k]
                ra, rb, rc = a % 9, b % 9, c % 9
                same = a // 9 == b // 9 == c // 9
                distinct = len({a // 9, b // 9, c // 9}) == 3
                if rb == ra + 1 and rc == ra + 2 and (same or distinct):
                    return True
                if rb == ra + 2 and rc == ra + 4 and same:
                    return True
                if ra == 0 and rb == 3 and rc == 6 and distinct:
                    return True
    return False


def _wind_pung_hand(rng: np.random.Generator, role: str) -> WinningHand | None:
    """A hand with a wind pung that is the ``"prevalent"`` wind, the ``"seat"`` wind, or
    (``"neither"``) only a 幺九刻."""
    w = int(rng.choice(WINDS))
    other = int(rng.integers(4))
    if role == "prevalent":
        seat, prev = other, w - EAST
    elif role == "seat":
        seat, prev = w - EAST, other
    else:
        winds = [x for x in range(4) if x != w - EAST]
        seat, prev = int(rng.choice(winds)), int(rng.choice(winds))
    return build_regular(rng, [P(w)], fill=random_fill(rng), seat_wind=seat, prevalent_wind=prev)


# --------------------------------------------------------------------------- the recipes
# In table order. Each draws its own choices after the common Draws; the order of the draws
# inside a recipe (argument lists included: Python evaluates them left to right) is part of
# the samples that tests pin.


@recipe("Big Four Winds")
def _big_four_winds(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, [P(t) for t in WINDS], fill=d.fill)


@recipe("Big Three Dragons")
def _big_three_dragons(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, [P(t) for t in DRAGONS], fill=d.fill)


@recipe("All Green")
def _all_green(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, fill=sampler(GREEN, float(rng.choice([0.2, 0.5]))), pair_from=GREEN)


@recipe("Nine Gates")
def _nine_gates(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_nine_gates(rng)


@recipe("Four Kongs")
def _four_kongs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, _any_pungs(rng), pres=["anykong"] * 4, win="pair")


@recipe("Seven Shifted Pairs")
def _seven_shifted_pairs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    start = int(rng.integers(1, 4))
    return build_seven_pairs(rng, kinds=[st(d.suit, start + i) for i in range(7)])


@recipe("Thirteen Orphans")
def _thirteen_orphans(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_thirteen_orphans(rng)


@recipe("All Terminals")
def _all_terminals(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    if rng.random() < 0.3:
        return build_seven_pairs(rng, TERMINALS)
    return build_regular(rng, _four_pungs(rng, TERMINALS), pair_from=TERMINALS)


@recipe("Little Four Winds")
def _little_four_winds(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    ws = [int(t) for t in rng.permutation(WINDS)]
    return build_regular(rng, [P(t) for t in ws[:3]], fill=d.fill, pair=ws[3])


@recipe("Little Three Dragons")
def _little_three_dragons(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    ds = [int(t) for t in rng.permutation(DRAGONS)]
    return build_regular(rng, [P(ds[0]), P(ds[1])], fill=d.fill, pair=ds[2])


@recipe("All Honours")
def _all_honours(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    if rng.random() < 0.25:
        return build_seven_pairs(rng, kinds=HONORS)
    return build_regular(rng, _four_pungs(rng, HONORS), pair_from=HONORS)


@recipe("Four Concealed Pungs")
def _four_concealed_pungs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    sd = bool(rng.random() < 0.5)
    return build_regular(
        rng, _any_pungs(rng), pres=["closed"] * 4, win="any" if sd else "pair", self_drawn=sd
    )


@recipe("Pure Terminal Chows")
def _pure_terminal_chows(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    s = d.suit
    return build_regular(rng, [C(st(s, 1)), C(st(s, 1)), C(st(s, 7)), C(st(s, 7))], pair=st(s, 5))


@recipe("Quadruple Chow")
def _quadruple_chow(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, [C(st(d.suit, int(rng.integers(1, 8))))] * 4, fill=d.fill)


@recipe("Four Pure Shifted Pungs")
def _four_pure_shifted_pungs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    k = int(rng.integers(1, 7))
    return build_regular(rng, [P(st(d.suit, k + i)) for i in range(4)], fill=d.fill)


@recipe("Four Pure Shifted Chows")
def _four_pure_shifted_chows(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    if rng.random() < 0.7:
        k = int(rng.integers(1, 5))
        return build_regular(rng, [C(st(d.suit, k + i)) for i in range(4)], fill=d.fill)
    return build_regular(rng, [C(st(d.suit, 1 + 2 * i)) for i in range(4)], fill=d.fill)


@recipe("Three Kongs")
def _three_kongs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, _any_pungs(rng, 3), fill=d.fill, pres=["anykong"] * 3)


@recipe("All Terminals and Honours")
def _all_terminals_and_honours(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    if rng.random() < 0.3:
        return build_seven_pairs(rng, ORPHANS)
    ts = [int(rng.choice(TERMINALS)), int(rng.choice(HONORS))]
    rest = [t for t in ORPHANS if t not in ts]
    ts += [int(t) for t in rng.choice(rest, size=2, replace=False)]
    return build_regular(rng, [P(t) for t in ts], pair_from=ORPHANS)


@recipe("Seven Pairs")
def _seven_pairs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    allowed, _ = random_style(rng)
    return build_seven_pairs(rng, allowed)


@recipe("Greater Honours and Knitted Tiles")
def _greater_honours_and_knitted(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_honors_knitted(rng, 7)


@recipe("All Even Pungs")
def _all_even_pungs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    evens = _suited_ranks((2, 4, 6, 8))
    return build_regular(rng, _four_pungs(rng, evens), pair_from=evens)


@recipe("Full Flush")
def _full_flush(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    pool = _suited_ranks(range(1, 10), [d.suit])
    if rng.random() < 0.15:
        return build_seven_pairs(rng, pool)
    fill = sampler(pool, float(rng.choice([0.1, 0.3, 0.6])))
    return build_regular(rng, fill=fill, pair_from=pool)


@recipe("Pure Triple Chow")
def _pure_triple_chow(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, [C(st(d.suit, int(rng.integers(1, 8))))] * 3, fill=d.fill)


@recipe("Pure Shifted Pungs")
def _pure_shifted_pungs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    k = int(rng.integers(1, 8))
    return build_regular(rng, [P(st(d.suit, k + i)) for i in range(3)], fill=d.fill)


def _rank_band(ranks: tuple[int, ...]) -> Recipe:
    """Suited tiles of ``ranks`` only, in 1-3 suits (全大, 全中, 全小, 大于五, 小于五, 断幺)."""

    def build(rng: np.random.Generator, d: Draws) -> WinningHand | None:
        suits = sorted(int(x) for x in rng.choice(3, size=int(rng.integers(1, 4)), replace=False))
        pool = _suited_ranks(ranks, suits)
        if rng.random() < 0.12:
            return build_seven_pairs(rng, pool)
        return build_regular(rng, fill=sampler(pool, float(rng.choice([0.2, 0.5]))), pair_from=pool)

    return build


recipe("Upper Tiles")(_rank_band((7, 8, 9)))
recipe("Middle Tiles")(_rank_band((4, 5, 6)))
recipe("Lower Tiles")(_rank_band((1, 2, 3)))


@recipe("Pure Straight")
def _pure_straight(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    s = d.suit
    return build_regular(rng, [C(st(s, 1)), C(st(s, 4)), C(st(s, 7))], fill=d.fill)


@recipe("Three-Suited Terminal Chows")
def _three_suited_terminal_chows(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    a, b, c = d.suits
    return build_regular(rng, [C(st(a, 1)), C(st(a, 7)), C(st(b, 1)), C(st(b, 7))], pair=st(c, 5))


@recipe("Pure Shifted Chows")
def _pure_shifted_chows(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    if rng.random() < 0.6:
        k = int(rng.integers(1, 6))
        return build_regular(rng, [C(st(d.suit, k + i)) for i in range(3)], fill=d.fill)
    k = int(rng.integers(1, 4))
    return build_regular(rng, [C(st(d.suit, k + 2 * i)) for i in range(3)], fill=d.fill)


@recipe("All Fives")
def _all_fives(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    lows = [st(x, k) for x in range(3) for k in (3, 4, 5)]
    fives = [st(x, 5) for x in range(3)]
    return build_regular(rng, fill=sampler(fives, 0.3, chow_lows=lows), pair_from=fives)


@recipe("Triple Pung")
def _triple_pung(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    k = int(rng.integers(1, 10))
    return build_regular(rng, [P(st(x, k)) for x in range(3)], fill=d.fill)


@recipe("Three Concealed Pungs")
def _three_concealed_pungs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    pungs = _any_pungs(rng, 3)
    sd = bool(rng.random() < 0.4)
    return build_regular(
        rng,
        pungs,
        fill=d.fill,
        pres=["closed"] * 3,
        win="any" if sd else "not_pung",
        self_drawn=sd,
    )


@recipe("Lesser Honours and Knitted Tiles")
def _lesser_honours_and_knitted(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_honors_knitted(rng, int(rng.choice([5, 6])))


@recipe("Knitted Straight")
def _knitted_straight(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    if rng.random() < 0.25:
        return build_honors_knitted(rng, 5)
    return build_knitted_straight(rng)


recipe("Upper Four")(_rank_band((6, 7, 8, 9)))
recipe("Lower Four")(_rank_band((1, 2, 3, 4)))


@recipe("Big Three Winds")
def _big_three_winds(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    ws = [int(t) for t in rng.permutation(WINDS)]
    return build_regular(
        rng,
        [P(t) for t in ws[:3]],
        fill=sampler([*SUITED, *DRAGONS], 0.3),
        pair_from=[*SUITED, *DRAGONS],
    )


@recipe("Mixed Straight")
def _mixed_straight(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    a, b, c = d.suits
    return build_regular(rng, [C(st(a, 1)), C(st(b, 4)), C(st(c, 7))], fill=d.fill)


@recipe("Reversible Tiles")
def _reversible_tiles(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    if rng.random() < 0.12:
        return build_seven_pairs(rng, REVERSIBLE)
    fill = sampler(REVERSIBLE, float(rng.choice([0.3, 0.6])))
    return build_regular(rng, fill=fill, pair_from=REVERSIBLE)


@recipe("Mixed Triple Chow")
def _mixed_triple_chow(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    k = int(rng.integers(1, 8))
    return build_regular(rng, [C(st(x, k)) for x in range(3)], fill=d.fill)


@recipe("Mixed Shifted Pungs")
def _mixed_shifted_pungs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    a, b, c = d.suits
    k = int(rng.integers(1, 8))
    return build_regular(rng, [P(st(a, k)), P(st(b, k + 1)), P(st(c, k + 2))], fill=d.fill)


@recipe("Chicken Hand")
def _chicken_hand(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    """Three suits, one honour pair, unrelated sets, an exposed meld, a two-sided discard win
    and no other fan."""
    honour = int(rng.choice([*WINDS, RED, GREEN_DRAGON]))
    for _ in range(60):
        n_chows = int(rng.choice([3, 4], p=[0.6, 0.4]))
        chows: list[int] = []
        for _k in range(n_chows):
            chows.append(st(int(rng.integers(3)), int(rng.integers(1, 8))))
        pungs = [st(int(rng.integers(3)), int(rng.integers(2, 9))) for _k in range(4 - n_chows)]
        if _chows_related(chows) or len({t % 9 for t in pungs}) < len(pungs):
            continue
        sets = [C(t) for t in chows] + [P(t) for t in pungs]
        c = counts_of(sets, honour)
        if max(c) > 3 or {t // 9 for t in chows + pungs} != {0, 1, 2}:
            continue
        if all(t % 9 in (0, 6) for t in chows):  # all chows 123/789: outside hand
            continue
        n_melds = int(rng.integers(1, 4))
        hand = build_regular(
            rng,
            sets,
            fill=sampler([]),
            pair=honour,
            pres=[None] * 4,
            n_melds=n_melds,
            kongs_ok=False,
            win="chow",
            wait="multi",
            tries=6,
            self_drawn=False,
            kong_win=False,
            last_tile=False,
            last_copy=False,
            seat_wind=int(rng.integers(4)),
            prevalent_wind=int(rng.integers(4)),
        )
        if hand is None:
            continue
        if all(m.kind != CHOW and m.kind != PUNG for m in hand.melds):
            continue
        return hand
    return None


@recipe("Last Tile Draw")
def _last_tile_draw(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, fill=d.fill, self_drawn=True, last_tile=True)


@recipe("Last Tile Claim")
def _last_tile_claim(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, fill=d.fill, self_drawn=False, last_tile=True, kong_win=False)


@recipe("Out with Replacement Tile")
def _out_with_replacement_tile(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(
        rng,
        [P(int(rng.integers(NUM_KINDS)))],
        fill=d.fill,
        pres=["anykong"],
        self_drawn=True,
        kong_win=True,
    )


@recipe("Robbing the Kong")
def _robbing_the_kong(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(
        rng, fill=d.fill, win="robbable", self_drawn=False, kong_win=True, last_tile=False
    )


@recipe("All Pungs")
def _all_pungs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, _any_pungs(rng), n_melds=int(rng.integers(1, 5)))


@recipe("Half Flush")
def _half_flush(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    pool = _suited_ranks(range(1, 10), [d.suit]) + list(HONORS)

    def mixed(h: WinningHand) -> bool:
        cs = h.all_counts()
        return any(cs[t] for t in HONORS) and any(cs[t] for t in range(EAST))

    if rng.random() < 0.12:
        return build_seven_pairs(rng, pool)
    return build_regular(rng, fill=sampler(pool, 0.4), pair_from=pool, check=mixed)


@recipe("Mixed Shifted Chows")
def _mixed_shifted_chows(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    a, b, c = d.suits
    k = int(rng.integers(1, 6))
    return build_regular(rng, [C(st(a, k)), C(st(b, k + 1)), C(st(c, k + 2))], fill=d.fill)


@recipe("All Types")
def _all_types(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    a, b, c = d.suits
    wind, dragon = int(rng.choice(WINDS)), int(rng.choice(DRAGONS))
    sets = [C(st(a, int(rng.integers(1, 8)))), C(st(b, int(rng.integers(1, 8))))]
    if rng.random() < 0.5:
        sets += [P(dragon), C(st(c, int(rng.integers(1, 8))))]
        return build_regular(rng, sets, fill=d.fill, pair=wind)
    sets += [P(wind), P(st(c, int(rng.integers(1, 10))))]
    return build_regular(rng, sets, fill=d.fill, pair=dragon)


@recipe("Melded Hand")
def _melded_hand(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(
        rng, fill=d.fill, pres=["exposed"] * 4, win="pair", self_drawn=False, kong_win=False
    )


@recipe("Two Concealed Kongs")
def _two_concealed_kongs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(
        rng, _any_pungs(rng, 2), fill=d.fill, pres=[CONCEALED_KONG] * 2, kongs_ok=False
    )


@recipe("Two Dragon Pungs")
def _two_dragon_pungs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    ds = [int(t) for t in rng.permutation(DRAGONS)]
    return build_regular(
        rng,
        [P(ds[0]), P(ds[1])],
        fill=sampler([*SUITED, *WINDS], 0.35),
        pair_avoid=[ds[2]],
        pair_from=[*SUITED, *WINDS],
    )


@recipe("Outside Hand")
def _outside_hand(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    lows = [st(x, k) for x in range(3) for k in (1, 7)]
    fill = sampler(ORPHANS, 0.35, chow_lows=lows)
    return build_regular(rng, [C(lows[int(rng.integers(6))])], fill=fill, pair_from=ORPHANS)


@recipe("Fully Concealed Hand")
def _fully_concealed_hand(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, fill=d.fill, exposed_ok=False, self_drawn=True)


@recipe("Two Melded Kongs")
def _two_melded_kongs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, _any_pungs(rng, 2), fill=d.fill, pres=["xkong"] * 2, kongs_ok=False)


@recipe("Last Tile")
def _last_tile(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    if rng.random() < 0.35:  # three copies in the winner's own pung: forced (rules §3.1)
        t = int(rng.integers(EAST))
        rank = t % 9 + 1
        low = t - int(rng.integers(max(0, rank - 7), min(2, rank - 1) + 1))
        return build_regular(
            rng,
            [P(t), C(low)],
            fill=d.fill,
            pres=[PUNG, HAND],
            win=lambda *_: t,
            last_copy=bool(rng.random() < 0.5),
            kong_win=False,
        )
    return build_regular(rng, fill=d.fill, win="single", last_copy=True, kong_win=False)


@recipe("Dragon Pung")
def _dragon_pung(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(
        rng,
        [P(int(rng.choice(DRAGONS)))],
        fill=sampler([*SUITED, *WINDS], 0.35),
        pair_from=[*SUITED, *WINDS],
    )


@recipe("Prevalent Wind")
def _prevalent_wind(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return _wind_pung_hand(rng, "prevalent")


@recipe("Seat Wind")
def _seat_wind(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return _wind_pung_hand(rng, "seat")


@recipe("Concealed Hand")
def _concealed_hand(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, fill=d.fill, exposed_ok=False, self_drawn=False, kong_win=False)


@recipe("All Chows")
def _all_chows(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    fill = sampler([], 0.0, chow_lows=chows_within(SUITED))
    return build_regular(rng, fill=fill, pair_from=SUITED)


@recipe("Tile Hog")
def _tile_hog(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    t = int(rng.integers(EAST))
    rank = t % 9 + 1
    low = t - int(rng.integers(max(0, rank - 7), min(2, rank - 1) + 1))
    if rng.random() < 0.6:
        return build_regular(rng, [P(t), C(low)], fill=d.fill, pres=["nokong", None])
    low2 = t - int(rng.integers(max(0, rank - 7), min(2, rank - 1) + 1))
    return build_regular(rng, [C(low), C(low2)], fill=d.fill, pair=t)


@recipe("Double Pung")
def _double_pung(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    a, b, _c = d.suits
    k = int(rng.integers(1, 10))
    return build_regular(rng, [P(st(a, k)), P(st(b, k))], fill=d.fill)


@recipe("Two Concealed Pungs")
def _two_concealed_pungs(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    sd = bool(rng.random() < 0.4)
    return build_regular(
        rng,
        _any_pungs(rng, 2),
        fill=d.fill,
        pres=["closed"] * 2,
        win="any" if sd else "not_pung",
        self_drawn=sd,
    )


@recipe("Concealed Kong")
def _concealed_kong(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    pung = P(int(rng.integers(NUM_KINDS)))
    return build_regular(rng, [pung], fill=d.fill, pres=[CONCEALED_KONG], kongs_ok=False)


recipe("All Simples")(_rank_band(tuple(range(2, 9))))


@recipe("Pure Double Chow")
def _pure_double_chow(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, [C(st(d.suit, int(rng.integers(1, 8))))] * 2, fill=d.fill)


@recipe("Mixed Double Chow")
def _mixed_double_chow(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    a, b, _c = d.suits
    k = int(rng.integers(1, 8))
    return build_regular(rng, [C(st(a, k)), C(st(b, k))], fill=d.fill)


@recipe("Short Straight")
def _short_straight(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    k = int(rng.integers(1, 5))
    return build_regular(rng, [C(st(d.suit, k)), C(st(d.suit, k + 3))], fill=d.fill)


@recipe("Two Terminal Chows")
def _two_terminal_chows(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, [C(st(d.suit, 1)), C(st(d.suit, 7))], fill=d.fill)


@recipe("Pung of Terminals or Honours")
def _pung_of_terminals_or_honours(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    if rng.random() < 0.3:
        return _wind_pung_hand(rng, "neither")
    return build_regular(rng, [P(int(rng.choice(TERMINALS)))], fill=d.fill)


@recipe("Melded Kong")
def _melded_kong(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    pung = P(int(rng.integers(NUM_KINDS)))
    return build_regular(rng, [pung], fill=d.fill, pres=["xkong"], kongs_ok=False)


@recipe("One Voided Suit")
def _one_voided_suit(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    a, b, _c = d.suits
    pool = _suited_ranks(range(1, 10), [a, b])
    if rng.random() < 0.5:
        pool += [int(t) for t in rng.choice(HONORS, size=3, replace=False)]
    return build_regular(rng, fill=sampler(pool, 0.35), pair_from=pool)


@recipe("No Honours")
def _no_honours(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    fill = sampler(SUITED, float(rng.choice([0.2, 0.5])))
    return build_regular(rng, fill=fill, pair_from=SUITED)


@recipe("Edge Wait")
def _edge_wait(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    n_melds = int(rng.integers(0, 4))
    return build_regular(rng, fill=d.fill, win="edge", wait="unique", n_melds=n_melds, tries=80)


@recipe("Closed Wait")
def _closed_wait(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    n_melds = int(rng.integers(0, 4))
    return build_regular(rng, fill=d.fill, win="closed", wait="unique", n_melds=n_melds, tries=80)


@recipe("Single Wait")
def _single_wait(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, fill=d.fill, win="pair", wait="unique", tries=80)


@recipe("Self-Drawn")
def _self_drawn(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, fill=d.fill, self_drawn=True)


@recipe("Flower Tiles")
def _flower_tiles(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    return build_regular(rng, fill=d.fill, flowers=int(rng.integers(1, 9)))


@recipe("Concealed Kong and Melded Kong")
def _concealed_and_melded_kong(rng: np.random.Generator, d: Draws) -> WinningHand | None:
    pungs = _any_pungs(rng, 2)
    return build_regular(rng, pungs, fill=d.fill, pres=["xkong", CONCEALED_KONG], kongs_ok=False)
