#!/usr/bin/env python3
"""Benchmark shanten and useful tiles side by side with PyMahjongGB 1.4.0.

Issue #3 asks for the overall shanten at least 1/3 of PyMahjongGB's ``MahjongShanten`` calls
per second, on distinct hands. Measured on the same 13-form hands (0-4 melds, shanten 0 to
5; each hand called once per pass):

1. overall shanten: ``mjenv.shanten.shanten(hand, melds)`` against
   ``MahjongShanten(packs, hand)`` (acceptance: at least 1/3); also ``shanten_counts``, the
   engine's path when the tile counts are already at hand;
2. useful tiles: ``mjenv.shanten.analyze(hand, melds)`` (every shape's shanten and useful
   tiles, the overall ones, the drawable kinds and their unseen copies) against the
   PyMahjongGB calls that give the same: ``RegularShanten`` plus the special-shape functions
   the melds allow (``SevenPairsShanten``, ``ThirteenOrphansShanten``,
   ``HonorsAndKnittedTilesShanten``, ``KnittedStraightShanten``); ``RegularShanten`` alone is
   listed for reference.

Method as in ``scripts/bench_fans.py``: all inputs of both sides built before timing and
checked untimed (same shanten, same useful tiles); interleaved rounds, ratios taken round by
round, medians and min-max over the rounds; a *cold* pass follows
``mjenv.shanten.clear_tables()`` (back to the tables built at import: the vectors of larger
suits and the products are filled as hands need them; there is no whole-result cache), the
*warm* pass repeats it later in the round.

    python scripts/bench_shanten.py [--hands 10000] [--runs 5] [--seed 3] [--pure] [--write-docs]

``--pure`` also measures the plain-Python build (a subprocess importing a copy of the package
without compiled modules). ``--write-docs`` writes ``docs/benchmarks-shanten.md`` (its own
file: ``docs/benchmarks.md`` belongs to ``scripts/bench_fans.py``).
"""

from __future__ import annotations

import datetime
import random
import shlex
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import Any

import benchkit
import MahjongGB
import numpy as np
from benchkit import ROOT, Row, gb_pack

from mjenv import shanten as shanten_module
from mjenv.melds import Meld
from mjenv.shanten import SHAPES, analyze, clear_tables, shanten, shanten_counts
from mjenv.testing import random_winning_hand
from mjenv.tiles import CODES, NUM_KINDS, tile_code, to_counts

DOCS = ROOT / "docs" / "benchmarks-shanten.md"
GB_SHAPES: dict[str, Callable[[tuple[str, ...]], tuple[int, tuple[str, ...]]]] = {
    "regular": MahjongGB.RegularShanten,
    "seven_pairs": MahjongGB.SevenPairsShanten,
    "thirteen_orphans": MahjongGB.ThirteenOrphansShanten,
    "honors_knitted": MahjongGB.HonorsAndKnittedTilesShanten,
    "knitted_straight": MahjongGB.KnittedStraightShanten,
}


def gb_shapes(n_melds: int) -> tuple[Callable[[tuple[str, ...]], Any], ...]:
    """The PyMahjongGB shape functions a hand with ``n_melds`` melds can use."""
    names = [s for s in SHAPES if n_melds == 0 or s == "regular"
             or (s == "knitted_straight" and n_melds == 1)]
    return tuple(GB_SHAPES[s] for s in names)


# ---------------------------------------------------------------- inputs, built before timing


def sample_hands(seed: int, n: int) -> list[tuple[tuple[int, ...], tuple[Meld, ...]]]:
    """``n`` distinct 13-form hands around the melds of a complete hand of any shape: its
    standing tiles less the winning tile with 0-8 of them replaced by random ones (shanten
    0-4 mostly), or (a quarter) random standing tiles (shanten 2-5)."""
    rng = random.Random(seed)
    np_rng = np.random.default_rng(seed)
    out: list[tuple[tuple[int, ...], tuple[Meld, ...]]] = []
    seen: set[tuple[Any, ...]] = set()
    while len(out) < n:
        w = random_winning_hand(np_rng)
        hand = list(w.hand)
        own = to_counts([*hand, *(t for m in w.melds for t in m.tiles)])
        swaps = 13 if rng.random() < 0.25 else rng.choice((0, 1, 1, 2, 2, 3, 4, 5, 6, 8))
        for _ in range(swaps):
            i = rng.randrange(len(hand))
            t = rng.randrange(NUM_KINDS)
            if own[t] < 4:
                own[hand[i]] -= 1
                own[t] += 1
                hand[i] = t
        key = (tuple(sorted(hand)), tuple((m.kind, m.tiles) for m in w.melds))
        if key not in seen:
            seen.add(key)
            out.append((key[0], w.melds))
    return out


@dataclass
class Inputs:
    ours: list[tuple[tuple[int, ...], tuple[Meld, ...]]]
    counts: list[tuple[list[int], int]]
    gb: list[tuple[tuple[Any, ...], tuple[str, ...]]]
    gb_useful: list[tuple[tuple[str, ...], tuple[Callable[[tuple[str, ...]], Any], ...]]]


def build_inputs(n: int, seed: int) -> Inputs:
    hands = sample_hands(seed, n)
    return Inputs(
        ours=hands,
        counts=[(to_counts(hand), len(melds)) for hand, melds in hands],
        gb=[(tuple(gb_pack(m) for m in melds), tuple(CODES[t] for t in hand))
            for hand, melds in hands],
        gb_useful=[(tuple(CODES[t] for t in hand), gb_shapes(len(melds)))
                   for hand, melds in hands],
    )


def check_inputs(inp: Inputs) -> dict[str, Any]:
    """Untimed: both sides give the same shanten and the same useful tiles (a kind held four
    times that a fifth copy would help is listed by us only: counted apart)."""
    c: dict[str, Any] = {"hands": len(inp.ours), "shanten_mismatch": 0, "useful_mismatch": 0,
                         "fifth_copy": 0, "by_shanten": Counter(), "by_melds": Counter()}
    for (hand, melds), (packs, codes) in zip(inp.ours, inp.gb, strict=True):
        gb_all = MahjongGB.MahjongShanten(packs, codes)
        c["by_shanten"][gb_all] += 1
        c["by_melds"][len(melds)] += 1
        result = analyze(hand, melds)
        if not shanten(hand, melds) == result.shanten == gb_all:
            c["shanten_mismatch"] += 1
        fours = {tile_code(t) for t in set(hand) if hand.count(t) == 4}
        fifth = False
        for entry in result.shapes:
            gb_s, gb_useful = GB_SHAPES[entry.shape](codes)
            ours = {tile_code(t) for t in entry.useful}
            theirs = set(gb_useful)
            if gb_s != entry.shanten or not (theirs <= ours and ours - theirs <= fours):
                c["useful_mismatch"] += 1
                break
            fifth |= ours != theirs
        c["fifth_copy"] += fifth
    c["by_shanten"] = dict(sorted(c["by_shanten"].items()))
    c["by_melds"] = dict(sorted(c["by_melds"].items()))
    return c


# ---------------------------------------------------------------- timed passes


def shanten_ours(inp: Inputs) -> float:
    f = shanten
    t0 = perf_counter()
    for hand, melds in inp.ours:
        f(hand, melds)
    return perf_counter() - t0


def shanten_counts_ours(inp: Inputs) -> float:
    f = shanten_counts
    t0 = perf_counter()
    for counts, n_melds in inp.counts:
        f(counts, n_melds)
    return perf_counter() - t0


def shanten_gb(inp: Inputs) -> float:
    f = MahjongGB.MahjongShanten
    t0 = perf_counter()
    for packs, codes in inp.gb:
        f(packs, codes)
    return perf_counter() - t0


def useful_ours(inp: Inputs) -> float:
    f = analyze
    t0 = perf_counter()
    for hand, melds in inp.ours:
        f(hand, melds)
    return perf_counter() - t0


def useful_gb(inp: Inputs) -> float:
    t0 = perf_counter()
    for codes, functions in inp.gb_useful:
        for f in functions:
            f(codes)
    return perf_counter() - t0


def useful_gb_regular(inp: Inputs) -> float:
    f = MahjongGB.RegularShanten
    t0 = perf_counter()
    for codes, _ in inp.gb_useful:
        f(codes)
    return perf_counter() - t0


# One round, in this order; a pass named "*.cold" follows clear_tables().
ROUND: list[tuple[str, Callable[[Inputs], float]]] = [
    ("shanten.ours.cold", shanten_ours), ("shanten.gb", shanten_gb),
    ("shanten.ours.warm", shanten_ours), ("shanten.counts", shanten_counts_ours),
    ("useful.ours.cold", useful_ours), ("useful.gb", useful_gb),
    ("useful.ours.warm", useful_ours), ("useful.gb.regular", useful_gb_regular),
]


# ---------------------------------------------------------------- report


SECTIONS: list[tuple[str, list[Row]]] = [
    ("1. Overall shanten", [
        Row("shanten.gb", "PyMahjongGB `MahjongShanten`"),
        Row("shanten.ours.cold", "mjenv `shanten`, cold (1st pass after `clear_tables()`)",
            "shanten.gb", 1 / 3),
        Row("shanten.ours.warm", "mjenv `shanten`, warm (2nd pass)", "shanten.gb", 1 / 3),
        Row("shanten.counts", "mjenv `shanten_counts` (34 counts given), warm", "shanten.gb"),
    ]),
    ("2. Every shape with its useful tiles", [
        Row("useful.gb", "PyMahjongGB `RegularShanten` + the special-shape functions the "
            "melds allow (same answer)"),
        Row("useful.gb.regular", "PyMahjongGB `RegularShanten` alone (regular shape only)",
            "useful.gb"),
        Row("useful.ours.cold", "mjenv `analyze`, cold", "useful.gb"),
        Row("useful.ours.warm", "mjenv `analyze`, warm", "useful.gb"),
        Row("useful.ours.warm", "mjenv `analyze`, warm, vs `RegularShanten` alone (stricter)",
            "useful.gb.regular"),
    ]),
]


def render(res: dict[str, Any]) -> str:
    """The tables and checks of one measured build, as Markdown."""
    n = res["checks"]["hands"]
    rates = {k: [n / s for s in v] for k, v in res["seconds"].items()}
    c = res["checks"]
    lines = [benchkit.build_line(res), "",
             f"{n:,} distinct 13-form hands; by PyMahjongGB's shanten: "
             + ", ".join(f"{s}: {k:,}" for s, k in c["by_shanten"].items())
             + "; by melds: " + ", ".join(f"{m}: {k:,}" for m, k in c["by_melds"].items())
             + f". Shanten disagreements: {c['shanten_mismatch']}; useful-tile disagreements: "
             f"{c['useful_mismatch']} (hands where we also list a fifth copy: "
             f"{c['fifth_copy']}).", ""]
    for title, rows in SECTIONS:
        lines += [f"### {title}", "",
                  "| System | Median hands/s | Min–max | µs/hand | Ratio (median, min–max of "
                  "rounds) | Target | Result |",
                  "|---|---:|---:|---:|---|---|---|"]
        for row in rows:
            cells = (row.system, *benchkit.rate_cells(rates[row.key]),
                     *benchkit.ratio_cells(row, rates))
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def measure(hands: int, runs: int, seed: int) -> dict[str, Any]:
    """Measure the build of mjenv imported (see ``benchkit.measure``)."""
    files = {"mjenv.shanten": shanten_module.__file__ or "?"}

    def prepare() -> tuple[Inputs, dict[str, Any]]:
        inp = build_inputs(hands, seed)
        return inp, check_inputs(inp)

    return benchkit.measure(files, prepare, ROUND, clear_tables, runs)


def main(argv: Sequence[str] | None = None) -> int:
    return benchkit.main(
        argv, script=__file__, description=(__doc__ or "").split("\n\n")[0], seed=3,
        hands_help="distinct hands", docs_path=DOCS, docs_help="write the report",
        measure=measure, render=render, heading="PyMahjongGB vs mjenv shanten", docs=docs)


def docs(argv: list[str], results: list[dict[str, Any]], note: str, body: str) -> str:
    m = benchkit.machine()
    builds = " and ".join(benchkit.build_of(r["files"]) for r in results)
    return f"""# Benchmarks: shanten and useful tiles

Written by `scripts/bench_shanten.py --write-docs`; do not edit by hand. Command:

    {shlex.join(["python", "scripts/bench_shanten.py", *argv])}

Date: {datetime.date.today().isoformat()}. Machine: {m['nproc']} cores, {m['cpu']};
{m['platform']}; Python {m['python']}, PyMahjongGB {m['PyMahjongGB']}, mjenv {m['mjenv']}
({m['source']}). Builds measured: {builds}. The fan calculator's figures are in
[benchmarks.md](benchmarks.md).

Acceptance (issue #3): the overall shanten at least 1/3 of `MahjongShanten`'s calls per second.

{note}## Results

{body}
## Method

* **The same hands for both.** Distinct 13-form hands with 0-4 melds: complete hands of every
  shape (`mjenv.testing.random_winning_hand`) less their winning tile, with 0-8 standing
  tiles (or, for a quarter of them, every standing tile) replaced at random, so the shanten
  runs from 0 to 5 as in play (counts above; the stratified check up to 6 is
  `tests/test_shanten_oracle.py`). Every input of both sides (our
  tile ids and melds, PyMahjongGB's codes and packs) is built before timing and checked
  untimed: the same shanten, overall and per shape, and the same useful tiles.
* **One process, interleaved.** A round times every row in turn; ratios are taken round by
  round, so drift of this shared, noisy machine hits both sides alike. Tables show the median
  and min–max over the rounds (`time.perf_counter`; the garbage collector stays on,
  `gc.collect()` runs before each pass).
* **Cold and warm.** `mjenv.shanten.clear_tables()` empties the tables filled as hands need
  them (the vectors of groups of more than 5 tiles, and the products of two groups' vectors;
  those of up to 5 tiles are built at import) right before each pass marked cold; the warm
  figure is the same pass repeated later in the round. There is no whole-result cache.
  PyMahjongGB keeps no state between calls.
* **Comparators.** `MahjongShanten` gives the overall shanten only. For every shape's shanten
  with its useful tiles PyMahjongGB needs one call per shape: `RegularShanten`, plus
  `SevenPairsShanten`, `ThirteenOrphansShanten` and `HonorsAndKnittedTilesShanten` without
  melds and `KnittedStraightShanten` with at most one; `analyze` also gives the overall
  useful tiles, the drawable kinds and their unseen copies.
* **Builds.** Installs compile `mjenv/shanten.py` (with the calculator's modules) with mypyc;
  `--pure` measures the plain-Python sources too, in a subprocess importing a copy of the
  package without compiled modules.
"""


if __name__ == "__main__":
    sys.exit(main())
