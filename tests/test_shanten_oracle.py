"""Shanten and useful tiles against PyMahjongGB 1.4.0 (the reference), on hands stratified by
shanten and by number of melds.

Random hands sit at shanten 3-5 and miss the interesting cases, so each stratum (shanten s,
k melds) is filled on purpose: k random melds of every kind, then standing tiles that start
either from a complete hand of a random shape (less its winning tile: ready) or from random
tiles, and walk one tile replacement at a time towards shanten s (a replacement is kept when
it does not move away from s; PyMahjongGB's ``MahjongShanten`` measures). Strata: shanten 0..6
with 0 or 1 meld, 0..4 with 2 melds, 0..2 with 3, 0 with 4 (the most those hands can have).

For every hand (13 − 3·melds standing tiles), both sides are compared:

* the overall shanten: ``mjenv.shanten.shanten`` and ``analyze`` against ``MahjongShanten``;
* each shape: shanten and useful tiles against ``RegularShanten``, ``SevenPairsShanten``,
  ``ThirteenOrphansShanten``, ``HonorsAndKnittedTilesShanten`` and ``KnittedStraightShanten``
  (which raise where the melds rule the shape out: we then have no entry);
* the overall useful tiles against the union of PyMahjongGB's useful tiles of the shapes at
  the best shanten.

Useful tiles must be equal, with one documented exception (docs/analysis.md): for a kind of
which the player holds all four copies among the standing tiles, PyMahjongGB lists it only
when the hand is ready (a "fifth copy" wait), we list it whenever a fifth copy would lower
the shanten. Such differences are counted apart ("fifth copy") and must only ever be that.

14-form hands (one more tile, before a discard) have no PyMahjongGB counterpart; they are
checked against the best shanten after each discard (PyMahjongGB per shape) and against
``mjenv.decompose.is_complete`` for -1.

The default suite runs about 2,000 hands; ``pytest -m acceptance`` runs at least 10,000 and
writes ``docs/shanten-differential.md``.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

MahjongGB = pytest.importorskip("MahjongGB")

from mjenv.decompose import is_complete  # noqa: E402
from mjenv.melds import Meld  # noqa: E402
from mjenv.shanten import SHAPES, analyze, shanten  # noqa: E402
from mjenv.testing import random_winning_hand  # noqa: E402
from mjenv.tiles import CODES, NUM_KINDS, format_tiles, tile_code, to_counts  # noqa: E402

from .fans.oracle import pack_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SUMMARY = ROOT / "docs" / "shanten-differential.md"

MAX_SHANTEN = {0: 6, 1: 6, 2: 4, 3: 2, 4: 0}
"""The highest shanten a hand with k melds can have (shanten 0..6 asked for)."""
STRATA = [(s, k) for k in range(5) for s in range(MAX_SHANTEN[k] + 1)]
DEFAULT_SEED, DEFAULT_PER_STRATUM = 11, 90  # 23 strata: 2,070 hands
ACCEPTANCE_SEED, ACCEPTANCE_PER_STRATUM = 2024, 440  # 10,120 hands
FOURTEEN_DEFAULT, FOURTEEN_ACCEPTANCE = 300, 2000
SHOW = 15

GB_SHAPES: dict[str, Callable[[tuple[str, ...]], tuple[int, tuple[str, ...]]]] = {
    "regular": MahjongGB.RegularShanten,
    "seven_pairs": MahjongGB.SevenPairsShanten,
    "thirteen_orphans": MahjongGB.ThirteenOrphansShanten,
    "honors_knitted": MahjongGB.HonorsAndKnittedTilesShanten,
    "knitted_straight": MahjongGB.KnittedStraightShanten,
}


# --------------------------------------------------------------------------- hands


@dataclass(frozen=True)
class Case:
    hand: tuple[int, ...]  # standing tiles, sorted
    melds: tuple[Meld, ...]
    gb_shanten: int
    origin: str  # "winning" or "random" start

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(tile_code(t) for t in self.hand)

    def key(self) -> tuple[Any, ...]:
        return self.hand, tuple(sorted((m.kind, m.tiles) for m in self.melds))

    def describe(self) -> str:
        melds = "; ".join(m.describe() for m in self.melds)
        return f"{format_tiles(self.hand)}" + (f" | {melds}" if melds else "")


def _random_melds(rng: random.Random, k: int, counts: list[int]) -> list[Meld]:
    melds: list[Meld] = []
    while len(melds) < k:
        kind = rng.choice(("chow", "chow", "pung", "pung", "kong", "added_kong",
                           "concealed_kong"))
        if kind == "chow":
            first = 9 * rng.randrange(3) + rng.randrange(7)
            tiles = (first, first + 1, first + 2)
            if any(counts[t] >= 4 for t in tiles):
                continue
            meld = Meld.chow(first, claimed=first + rng.randrange(3))
        else:
            t = rng.randrange(NUM_KINDS)
            size = 3 if kind == "pung" else 4
            if counts[t] + size > 4:
                continue
            tiles = (t,) * size
            offset = rng.randrange(1, 4)
            meld = {"pung": Meld.pung(t, offset), "kong": Meld.kong(t, offset),
                    "added_kong": Meld.added_kong(t, offset),
                    "concealed_kong": Meld.concealed_kong(t)}[kind]
        for t in tiles:
            counts[t] += 1
        melds.append(meld)
    return melds


def _random_tile(rng: random.Random, counts: list[int]) -> int:
    while True:
        t = rng.randrange(NUM_KINDS)
        if counts[t] < 4:
            return t


class Sampler:
    """Hands for each (shanten, melds) stratum, deterministic for the seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        np_rng = np.random.default_rng(seed)
        self.winning: dict[int, list[tuple[tuple[int, ...], tuple[Meld, ...]]]] = {
            k: [] for k in range(5)}
        for _ in range(1500):
            h = random_winning_hand(np_rng)
            self.winning[len(h.melds)].append((h.hand, h.melds))
        self.calls = 0

    def gb(self, hand: list[int], packs: tuple[Any, ...]) -> int:
        self.calls += 1
        return int(MahjongGB.MahjongShanten(packs, tuple(CODES[t] for t in hand)))

    def start(self, k: int) -> tuple[list[int], list[Meld], list[int], str]:
        pool = self.winning[k]
        if pool and self.rng.random() < 0.5:
            hand, melds = pool[self.rng.randrange(len(pool))]
            counts = to_counts([*hand, *(t for m in melds for t in m.tiles)])
            return list(hand), list(melds), counts, "winning"
        counts = [0] * NUM_KINDS
        melds = _random_melds(self.rng, k, counts)
        hand = []
        for _ in range(13 - 3 * k):
            t = _random_tile(self.rng, counts)
            counts[t] += 1
            hand.append(t)
        return hand, melds, counts, "random"

    def walk(self, target: int, k: int, max_steps: int = 400) -> Case | None:
        hand, melds, counts, origin = self.start(k)
        packs = tuple(pack_of(m) for m in melds)
        s = self.gb(hand, packs)
        for _ in range(max_steps):
            if s == target:
                return Case(tuple(sorted(hand)), tuple(melds), s, origin)
            i = self.rng.randrange(len(hand))
            old = hand[i]
            new = _random_tile(self.rng, counts)
            if new == old:
                continue
            hand[i] = new
            s2 = self.gb(hand, packs)
            if abs(s2 - target) <= abs(s - target):
                counts[old] -= 1
                counts[new] += 1
                s = s2
            else:
                hand[i] = old
        return None

    def stratified(self, per_stratum: int) -> list[Case]:
        out: list[Case] = []
        seen: set[tuple[Any, ...]] = set()
        for target, k in STRATA:
            found = 0
            tries = 0
            while found < per_stratum:
                tries += 1
                assert tries < 50 * per_stratum, f"cannot fill stratum shanten {target}, {k} melds"
                case = self.walk(target, k)
                if case is None or case.key() in seen:
                    continue
                seen.add(case.key())
                out.append(case)
                found += 1
        return out


# --------------------------------------------------------------------------- comparison


@dataclass
class Report:
    hands: int = 0
    seconds: float = 0.0
    per_stratum: Counter[tuple[int, int]] = field(default_factory=Counter)
    origins: Counter[str] = field(default_factory=Counter)
    shape_checks: Counter[str] = field(default_factory=Counter)  # shape -> hands compared
    ready_special: Counter[str] = field(default_factory=Counter)  # best shape of ready hands
    fifth_copy: Counter[tuple[int, int]] = field(default_factory=Counter)  # stratum -> hands
    mismatches: list[str] = field(default_factory=list)
    mismatch_strata: Counter[tuple[int, int]] = field(default_factory=Counter)
    fourteen: int = 0
    fourteen_complete: int = 0

    def bad(self, stratum: tuple[int, int], text: str) -> None:
        self.mismatches.append(text)
        self.mismatch_strata[stratum] += 1

    def failure_message(self) -> str:
        return (f"{len(self.mismatches)} disagreements with PyMahjongGB in {self.hands} hands "
                f"(+{self.fourteen} 14-form):\n" + "\n".join(self.mismatches[:SHOW]))


def _useful_agrees(ours: set[str], theirs: set[str], fours: set[str]) -> tuple[bool, bool]:
    """(agrees, by a fifth copy only): equal, or ours also lists kinds held four times."""
    if ours == theirs:
        return True, False
    return theirs <= ours and ours - theirs <= fours, True


def compare(cases: list[Case], rep: Report | None = None) -> Report:
    rep = rep or Report()
    start = time.perf_counter()
    for case in cases:
        rep.hands += 1
        k = len(case.melds)
        stratum = (case.gb_shanten, k)
        rep.per_stratum[stratum] += 1
        rep.origins[case.origin] += 1
        where = f"[shanten {case.gb_shanten}, {k} melds] {case.describe()}"
        fours = {tile_code(t) for t in set(case.hand) if case.hand.count(t) == 4}
        packs = tuple(pack_of(m) for m in case.melds)
        gb_all = MahjongGB.MahjongShanten(packs, case.codes)
        ours_fast = shanten(case.hand, case.melds)
        result = analyze(case.hand, case.melds)
        if not (ours_fast == result.shanten == gb_all == case.gb_shanten):
            rep.bad(stratum, f"{where}\n    overall: shanten {ours_fast}, analyze "
                    f"{result.shanten}, MahjongShanten {gb_all}")
            continue
        fifth = False
        theirs_union: set[str] = set()
        for shape in SHAPES:
            entry = result.shape(shape)
            try:
                gb_s, gb_useful = GB_SHAPES[shape](case.codes)
            except TypeError:
                if entry is not None:
                    rep.bad(stratum, f"{where}\n    {shape}: ours {entry.shanten}, "
                            "PyMahjongGB: not possible")
                continue
            if entry is None:
                rep.bad(stratum, f"{where}\n    {shape}: ours not possible, PyMahjongGB {gb_s}")
                continue
            rep.shape_checks[shape] += 1
            ours_useful = {tile_code(t) for t in entry.useful}
            ok, by_fifth = _useful_agrees(ours_useful, set(gb_useful), fours)
            if entry.shanten != gb_s or not ok:
                rep.bad(stratum, f"{where}\n    {shape}: ours {entry.shanten} "
                        f"{sorted(ours_useful)}, PyMahjongGB {gb_s} {sorted(gb_useful)}")
            fifth |= by_fifth
            if gb_s == gb_all:
                theirs_union |= set(gb_useful)
        ok, by_fifth = _useful_agrees({tile_code(t) for t in result.useful}, theirs_union,
                                      fours)
        if not ok:
            rep.bad(stratum, f"{where}\n    overall useful: ours "
                    f"{sorted(tile_code(t) for t in result.useful)}, PyMahjongGB "
                    f"{sorted(theirs_union)}")
        if fifth or by_fifth:
            rep.fifth_copy[stratum] += 1
        if gb_all == 0:
            best = [e.shape for e in result.shapes if e.shanten == 0]
            rep.ready_special.update(best)
    rep.seconds += time.perf_counter() - start
    return rep


def compare_fourteen(cases: list[Case], seed: int, n: int, rep: Report) -> None:
    """14-form: each shape's shanten is -1 exactly when complete in that shape overall
    (``is_complete``), else the best of PyMahjongGB's shanten of that shape after a discard."""
    rng = random.Random(seed)
    picked = rng.sample(cases, min(n, len(cases)))
    for case in picked:
        counts = to_counts([*case.hand, *(t for m in case.melds for t in m.tiles)])
        # draw a tile that helps half of the time, so that complete hands appear
        helpful = [t for t in analyze(case.hand, case.melds).drawable]
        draw = rng.choice(helpful) if helpful and rng.random() < 0.5 else _random_tile(rng,
                                                                                       counts)
        hand = tuple(sorted((*case.hand, draw)))
        rep.fourteen += 1
        k = len(case.melds)
        where = f"[14-form, {k} melds] {format_tiles(hand)} | " + "; ".join(
            m.describe() for m in case.melds)
        result = analyze(hand, case.melds)
        complete = is_complete(hand, case.melds)
        rep.fourteen_complete += complete
        if (result.shanten == -1) != complete or shanten(hand, case.melds) != result.shanten:
            rep.bad((-1, k), f"{where}\n    ours {result.shanten}, is_complete {complete}")
            continue
        for entry in result.shapes:
            after = []
            for t in set(hand):
                rest = list(hand)
                rest.remove(t)
                after.append(GB_SHAPES[entry.shape](tuple(CODES[x] for x in rest))[0])
            best = min(after)
            if entry.shanten != best and not (entry.shanten == -1 and best == 0):
                rep.bad((-1, k), f"{where}\n    {entry.shape}: ours {entry.shanten}, best "
                        f"after a discard (PyMahjongGB) {best}")


# --------------------------------------------------------------------------- tests


def test_gb_packs_are_accepted() -> None:
    melds = (Meld.chow(0, claimed=2), Meld.pung(27, 1), Meld.concealed_kong(33))
    codes = tuple(CODES[t] for t in (9, 10, 11, 12))
    assert MahjongGB.MahjongShanten(tuple(pack_of(m) for m in melds), codes) == 0


def test_differential_default() -> None:
    cases = Sampler(DEFAULT_SEED).stratified(DEFAULT_PER_STRATUM)
    assert len(cases) == len(STRATA) * DEFAULT_PER_STRATUM
    rep = compare(cases)
    compare_fourteen(cases, DEFAULT_SEED, FOURTEEN_DEFAULT, rep)
    assert not rep.mismatches, rep.failure_message()
    assert set(rep.per_stratum) == set(STRATA)
    assert rep.fourteen_complete > 0
    assert {"seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"} <= set(
        rep.ready_special)


@pytest.mark.acceptance
@pytest.mark.slow
def test_differential_acceptance() -> None:
    t0 = time.perf_counter()
    sampler = Sampler(ACCEPTANCE_SEED)
    cases = sampler.stratified(ACCEPTANCE_PER_STRATUM)
    built = time.perf_counter() - t0
    rep = compare(cases)
    compare_fourteen(cases, ACCEPTANCE_SEED, FOURTEEN_ACCEPTANCE, rep)
    assert len(cases) >= 10_000
    _write_summary(rep, sampler, built)
    assert not rep.mismatches, rep.failure_message()


def _write_summary(rep: Report, sampler: Sampler, built: float) -> None:
    lines = [
        "# Shanten and useful tiles: differential test against PyMahjongGB 1.4.0",
        "",
        "Written by `pytest -m acceptance tests/test_shanten_oracle.py` (see its docstring "
        "for the method); do not edit by hand.",
        "",
        f"{rep.hands:,} distinct 13-form hands, stratified by PyMahjongGB's shanten and the "
        f"number of melds ({len(STRATA)} strata, seed {ACCEPTANCE_SEED}; "
        f"{rep.origins['winning']:,} walked from a complete hand, {rep.origins['random']:,} "
        f"from random tiles; {sampler.calls:,} `MahjongShanten` calls to build them in "
        f"{built:.0f} s), and {rep.fourteen:,} 14-form hands ({rep.fourteen_complete:,} of "
        f"them complete). Compared in {rep.seconds:.0f} s.",
        "",
        f"**Mismatches: {len(rep.mismatches)}.**",
        "",
        "Compared per hand: the overall shanten (`shanten`, `analyze`) with `MahjongShanten`; "
        "each shape's shanten and useful tiles with `RegularShanten`, `SevenPairsShanten`, "
        "`ThirteenOrphansShanten`, `HonorsAndKnittedTilesShanten`, `KnittedStraightShanten`; "
        "the overall useful tiles with the union of PyMahjongGB's useful tiles of the best "
        "shapes. *Fifth copy*: hands where we also list a kind held four times among the "
        "standing tiles (a fifth copy would lower the shanten; PyMahjongGB lists such a kind "
        "only for a ready hand) — counted, not a mismatch.",
        "",
        "| melds \\ shanten | " + " | ".join(str(s) for s in range(7)) + " | all |",
        "|---|" + "---:|" * 8,
    ]
    for k in range(5):
        cells = []
        for s in range(7):
            n = rep.per_stratum.get((s, k), 0)
            cells.append(f"{n:,}" if n else "—")
        total = sum(rep.per_stratum.get((s, k), 0) for s in range(7))
        lines.append(f"| {k} | " + " | ".join(cells) + f" | {total:,} |")
    lines += [
        "",
        "Hands per stratum (— : no hand with that many melds can have that shanten).",
        "",
        "| stratum (shanten, melds) | hands | mismatches | fifth copy |",
        "|---|---:|---:|---:|",
    ]
    for s, k in STRATA:
        lines.append(f"| {s}, {k} | {rep.per_stratum[(s, k)]:,} | "
                     f"{rep.mismatch_strata[(s, k)]} | {rep.fifth_copy[(s, k)]} |")
    lines.append(f"| 14-form | {rep.fourteen:,} | "
                 f"{sum(n for (s, _), n in rep.mismatch_strata.items() if s < 0)} | — |")
    lines += [
        "",
        "Shapes compared (hands where PyMahjongGB computes the shape: seven pairs, thirteen "
        "orphans and honours-and-knitted without melds, knitted straight with at most one): "
        + ", ".join(f"{shape} {rep.shape_checks[shape]:,}" for shape in SHAPES) + ".",
        "",
        "Ready hands by the shapes that are ready: "
        + ", ".join(f"{shape} {rep.ready_special[shape]:,}" for shape in SHAPES) + ".",
        "",
    ]
    SUMMARY.write_text("\n".join(lines), encoding="utf-8")
