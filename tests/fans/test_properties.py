"""Properties of the fan calculator on random valid hands (hypothesis, seeded).

The hands come from a small generator written here, independent of mjenv.testing, so
the calculator is not tested only on inputs shaped by its own project's generator. Each hand
is physically valid: at most four copies of a kind, 13 - 3 * melds concealed tiles before the
win, and only flag combinations that can happen at a table.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjenv.decompose import waiting_tiles
from mjenv.fans import FAN_BY_ZH, FANS, NotWinError, calculate, calculate_all
from mjenv.melds import Meld
from mjenv.tiles import CODES, NUM_KINDS

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)

TERMINALS_HONOURS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
KNITTED = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


@dataclass
class Hand:
    hand: list[int]           # concealed tiles without the winning tile
    melds: list[Meld]
    win: int
    flags: dict[str, Any]

    def all_tiles(self) -> list[int]:
        return sorted(self.hand + [self.win] + [t for m in self.melds for t in m.tiles])


def _knitted_tiles(rng: random.Random) -> list[int]:
    suits = rng.choice(KNITTED)
    return [suits[k] * 9 + r for k in range(3) for r in range(k, 9, 3)]


def _regular(rng: random.Random, knitted: bool = False) -> tuple[list[int], list[Meld]] | None:
    counts = [0] * NUM_KINDS
    concealed: list[int] = []
    melds: list[Meld] = []
    if knitted:  # knitted straight + one set + pair: at most one meld
        concealed += _knitted_tiles(rng)
        n_sets, n_melds = 1, rng.choice((0, 0, 1))
    else:
        n_sets, n_melds = 4, rng.choice((0, 0, 1, 1, 2, 3, 4))
    for t in concealed:
        counts[t] += 1
    pair = rng.randrange(NUM_KINDS)
    counts[pair] += 2
    concealed += [pair, pair]
    for i in range(n_sets):
        melded = i < n_melds
        if rng.random() < 0.5:
            suit, start = rng.randrange(3), rng.randrange(7)
            low = suit * 9 + start
            tiles = [low, low + 1, low + 2]
            if melded:
                melds.append(Meld.chow(low, claimed=rng.choice(tiles)))
            else:
                concealed += tiles
        else:
            t = rng.randrange(NUM_KINDS)
            kind = rng.choice(("pung", "pung", "kong", "added_kong", "concealed_kong"))
            size = 3 if kind == "pung" or not melded else 4
            tiles = [t] * size
            if melded:
                offset = rng.choice((1, 2, 3))
                if kind == "concealed_kong":
                    melds.append(Meld.concealed_kong(t))
                else:
                    melds.append(Meld(kind, tuple(tiles), t, offset))
            else:
                concealed += tiles
        for t in tiles:
            counts[t] += 1
    if max(counts) > 4:
        return None
    return concealed, melds


def _special(rng: random.Random, shape: str) -> list[int] | None:
    if shape == "seven_pairs":
        kinds = [rng.randrange(NUM_KINDS) for _ in range(7)]
        if any(kinds.count(k) > 2 for k in kinds):
            return None
        return [k for k in kinds for _ in range(2)]
    if shape == "thirteen_orphans":
        return list(TERMINALS_HONOURS) + [rng.choice(TERMINALS_HONOURS)]
    # honours and knitted tiles: 14 of the 9 knitted tiles + 7 honours
    return rng.sample(_knitted_tiles(rng) + list(range(27, 34)), 14)


def random_hand(seed: int) -> Hand:
    rng = random.Random(seed)
    while True:
        shape = rng.choices(("regular", "knitted", "seven_pairs", "thirteen_orphans",
                             "honors_knitted"), weights=(70, 8, 10, 5, 7))[0]
        if shape in ("regular", "knitted"):
            built = _regular(rng, knitted=shape == "knitted")
            if built is None:
                continue
            concealed, melds = built
        else:
            tiles = _special(rng, shape)
            if tiles is None:
                continue
            concealed, melds = tiles, []
        rng.shuffle(concealed)
        win = concealed.pop()
        return Hand(concealed, melds, win, _random_flags(rng, concealed, melds, win))


def _random_flags(rng: random.Random, hand: list[int], melds: list[Meld],
                  win: int) -> dict[str, Any]:
    self_drawn = rng.random() < 0.4
    last_tile = rng.random() < 0.1
    has_kong = any(m.is_kong for m in melds)
    kong_win = False
    if self_drawn and has_kong:
        kong_win = rng.random() < 0.3
    elif (not self_drawn and not last_tile and win not in hand
          and all(win not in m.tiles for m in melds)):
        kong_win = rng.random() < 0.2
    return {
        "self_drawn": self_drawn, "last_tile": last_tile, "kong_win": kong_win,
        "last_copy": rng.random() < 0.15,
        "seat_wind": rng.randrange(4), "prevalent_wind": rng.randrange(4),
        "flowers": rng.choice((0, 0, 0, 1, 2, 3, 8)),
    }


def score(h: Hand, **overrides: Any) -> Any:
    return calculate(h.hand, h.melds, h.win, **{**h.flags, **overrides})


# ------------------------------------------------------------------ properties

def test_generator_makes_complete_hands() -> None:
    for seed in range(300):
        h = random_hand(seed)
        assert len(h.hand) == 13 - 3 * len(h.melds)
        assert max(h.all_tiles().count(t) for t in set(h.all_tiles())) <= 4
        score(h)  # valid input and complete: neither InvalidHandError nor NotWinError


@SETTINGS
@given(SEEDS, st.randoms(use_true_random=False))
def test_order_of_tiles_and_melds_does_not_matter(seed: int, shuffler: random.Random) -> None:
    h = random_hand(seed)
    base = score(h)
    hand = h.hand[:]
    melds = h.melds[:]
    shuffler.shuffle(hand)
    shuffler.shuffle(melds)
    again = calculate(hand, melds, h.win, **h.flags)
    assert again.counts() == base.counts()
    assert again.total == base.total
    assert again.meets_minimum == base.meets_minimum
    # the same hand written as codes, and the melds in their JSON form
    as_codes = calculate([CODES[t] for t in hand], [m.to_dict() for m in melds], CODES[h.win],
                         **h.flags)
    assert as_codes.counts() == base.counts()
    assert as_codes.total == base.total


@SETTINGS
@given(SEEDS)
def test_total_is_the_sum_of_points_times_count(seed: int) -> None:
    h = random_hand(seed)
    result = score(h)
    assert result.total == sum(e.points * e.count for e in result.fans)
    assert all(e.count >= 1 for e in result.fans)
    assert all(e.points == FAN_BY_ZH[e.zh].points for e in result.fans)
    ids = [e.fan.id for e in result.fans]
    assert ids == sorted(ids) and len(ids) == len(set(ids)), "fans in table order, each once"
    assert result.counts() == {e.zh: e.count for e in result.fans}


@SETTINGS
@given(SEEDS)
def test_meets_minimum_excludes_flowers(seed: int) -> None:
    h = random_hand(seed)
    result = score(h)
    assert result.flowers == h.flags["flowers"]
    assert result.counts().get("花牌", 0) == h.flags["flowers"]
    assert result.meets_minimum == (result.total - result.flowers >= 8)


@SETTINGS
@given(SEEDS, st.integers(min_value=0, max_value=8))
def test_flowers_only_add_their_points(seed: int, flowers: int) -> None:
    h = random_hand(seed)
    without = score(h, flowers=0)
    with_flowers = score(h, flowers=flowers)
    assert with_flowers.total == without.total + flowers
    assert with_flowers.meets_minimum == without.meets_minimum
    rest = {k: v for k, v in with_flowers.counts().items() if k != "花牌"}
    assert rest == without.counts()


@SETTINGS
@given(SEEDS)
def test_calculate_never_mutates_its_inputs(seed: int) -> None:
    h = random_hand(seed)
    hand_ids = h.hand[:]
    hand_codes = [CODES[t] for t in h.hand]
    meld_dicts = [m.to_dict() for m in h.melds]
    meld_objects = h.melds[:]
    flags = dict(h.flags)
    snapshot = copy.deepcopy((hand_ids, hand_codes, meld_dicts, meld_objects, flags))
    calculate(hand_ids, meld_objects, h.win, **flags)
    calculate(hand_codes, meld_dicts, CODES[h.win], **flags)
    calculate_all(hand_ids, meld_objects, h.win, **flags)
    assert (hand_ids, hand_codes, meld_dicts, meld_objects, flags) == snapshot


@SETTINGS
@given(SEEDS)
def test_a_tile_that_does_not_complete_the_hand_raises_not_win(seed: int) -> None:
    h = random_hand(seed)
    waits = set(waiting_tiles(h.hand, h.melds))
    assert h.win in waits
    counts = [0] * NUM_KINDS
    for t in h.hand + [t for m in h.melds for t in m.tiles]:
        counts[t] += 1
    flags = {**h.flags, "kong_win": False}
    for t in range(NUM_KINDS):
        if counts[t] >= 4:
            continue  # a fifth copy is invalid input, not a non-win
        if t in waits:
            calculate(h.hand, h.melds, t, **flags)  # completes: no error
        else:
            try:
                calculate(h.hand, h.melds, t, **flags)
            except NotWinError:
                pass
            else:
                raise AssertionError(f"{CODES[t]} completes {h.hand} {h.melds} but is not a wait")


@SETTINGS
@given(SEEDS)
def test_chicken_hand_iff_no_other_fan(seed: int) -> None:
    h = random_hand(seed)
    result = score(h)
    others = [e.zh for e in result.fans if e.zh not in ("无番和", "花牌")]
    assert ("无番和" in result.counts()) == (not others)
    if "无番和" in result.counts():
        assert result.total - result.flowers == 8 and result.meets_minimum


@SETTINGS
@given(SEEDS)
def test_calculate_all_is_best_first_and_agrees_with_calculate(seed: int) -> None:
    h = random_hand(seed)
    best = score(h)
    readings = calculate_all(h.hand, h.melds, h.win, **h.flags)
    assert readings
    totals = [r.total for r in readings]
    assert totals == sorted(totals, reverse=True)
    assert totals[0] == best.total
    assert best.counts() in [r.counts() for r in readings if r.total == best.total]
    keys = [tuple(sorted(r.counts().items())) for r in readings]
    assert len(keys) == len(set(keys)), "readings are distinct"


@SETTINGS
@given(SEEDS)
def test_decomposition_uses_exactly_the_tiles_of_the_hand(seed: int) -> None:
    h = random_hand(seed)
    result = score(h)
    used = sorted(t for g in result.decomposition for t in g.tiles)
    assert used == h.all_tiles()
    assert result.shape in ("regular", "seven_pairs", "thirteen_orphans", "honors_knitted",
                            "knitted_straight")


def test_every_fan_name_is_reachable_by_name() -> None:
    assert len(FANS) == 82
    assert {f.zh for f in FANS} == set(FAN_BY_ZH)
