#!/usr/bin/env python3
"""Benchmark the fan calculator and the wait finder side by side with PyMahjongGB 1.4.0.

Issue #2 asks for, on at least 10,000 distinct hands each called once per run, medians of at
least 5 runs, cold and warm figures:

1. fan calculation (``mjenv.fans.calculate`` on winning hands): at least 1/5 of PyMahjongGB's
   ``MahjongFanCalculator`` calls per second;
2. rejecting a non-winning hand (``calculate`` raising ``NotWinError``): at least 1/2 of
   ``MahjongFanCalculator`` raising ``TypeError('ERROR_NOT_WIN')``;
3. ``waiting_tiles(hand, melds)`` on 13-tile hands: at least 1/2 of the fastest way PyMahjongGB
   gives the same answer (``RegularShanten`` plus, when the shape allows them, the special-shape
   shanten functions; the union of their useful tiles where the shanten is 0).

Method. Every input of both sides is built before any timing. Each run (round) measures every
system in turn on the same hands, so machine drift hits both sides alike; the ratio to
PyMahjongGB is taken round by round, and medians and min-max over the rounds are reported.
A *cold* pass follows ``mjenv.fans.clear_tables()`` (which empties our lazily filled tables;
there is no whole-result cache); the *warm* pass repeats it later in the same round. The
garbage collector stays on (as in real use); ``gc.collect()`` runs before each timed pass.

    python scripts/bench_fans.py [--hands 10000] [--runs 5] [--seed 2] [--pure] [--write-docs]

``--pure`` also measures the plain-Python build: the script runs itself again in a subprocess
on a copy of the ``mjenv`` package holding only ``.py`` files, so no compiled module can load.
``--write-docs`` (re)writes ``docs/benchmarks.md``. Needs PyMahjongGB 1.4.0 (extra ``dev``).
"""

from __future__ import annotations

import datetime
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import perf_counter
from typing import Any

import benchkit
import MahjongGB
import numpy as np
from benchkit import ROOT, Row, gb_pack

from mjenv import decompose
from mjenv.decompose import is_complete, waiting_tiles
from mjenv.fans import NotWinError, calculate, calculator, clear_tables
from mjenv.melds import Meld
from mjenv.testing import WinningHand, sample_hands, sample_non_winning, sample_tenpai
from mjenv.tiles import tile_code, tile_id, to_counts

DOCS = ROOT / "docs" / "benchmarks.md"

# ---------------------------------------------------------------- PyMahjongGB's input form


def gb_fan_args(h: WinningHand, verbose: bool = False) -> tuple[Any, ...]:
    """Positional arguments of ``MahjongFanCalculator``."""
    c = h.context
    return (tuple(gb_pack(m) for m in h.melds), tuple(tile_code(t) for t in h.hand),
            tile_code(h.win_tile), c.flowers, c.self_drawn, c.last_copy, c.kong_win,
            c.last_tile, c.seat_wind, c.prevalent_wind, verbose)


def gb_waiting_tiles(codes: tuple[str, ...], n_melds: int) -> set[str]:
    """PyMahjongGB's answer to ``waiting_tiles``: the useful tiles of every shape the hand can
    still take (regular always; seven pairs, thirteen orphans and honours-and-knitted without
    melds; knitted straight with at most one meld) where that shape's shanten is 0."""
    shanten, useful = MahjongGB.RegularShanten(codes)
    waits = set(useful) if shanten == 0 else set()
    if n_melds == 0:
        for special in (MahjongGB.SevenPairsShanten, MahjongGB.ThirteenOrphansShanten,
                        MahjongGB.HonorsAndKnittedTilesShanten):
            shanten, useful = special(codes)
            if shanten == 0:
                waits.update(useful)
    if n_melds <= 1:
        shanten, useful = MahjongGB.KnittedStraightShanten(codes)
        if shanten == 0:
            waits.update(useful)
    return waits


# ---------------------------------------------------------------- inputs, built before timing


def _meld_key(melds: Sequence[Meld]) -> tuple[Any, ...]:
    return tuple((m.kind, m.tiles, m.claimed, m.from_offset) for m in melds)


def _distinct(make: Callable[[int], list[Any]], n: int, key: Callable[[Any], Any]) -> list[Any]:
    """The first ``n`` distinct items of a deterministic sample (asking for more if needed)."""
    ask = n + n // 20 + 10
    while True:
        seen: set[Any] = set()
        out = []
        for item in make(ask):
            k = key(item)
            if k not in seen:
                seen.add(k)
                out.append(item)
                if len(out) == n:
                    return out
        ask *= 2


@dataclass
class Inputs:
    fan_ours: list[tuple[tuple[int, ...], tuple[Meld, ...], int, dict[str, Any]]]
    fan_gb: list[tuple[Any, ...]]
    fan_gb_verbose: list[tuple[Any, ...]]
    reject_ours: list[tuple[tuple[int, ...], tuple[Meld, ...], int, dict[str, Any]]]
    reject_gb: list[tuple[Any, ...]]
    reject_shape: list[tuple[tuple[int, ...], tuple[Meld, ...]]]
    wait_ours: list[tuple[tuple[int, ...], tuple[Meld, ...]]]
    wait_gb: list[tuple[tuple[str, ...], int]]
    wait_gb_shanten: list[tuple[tuple[Any, ...], tuple[str, ...]]]


def build_inputs(n: int, seed: int) -> Inputs:
    wins = sample_hands(seed, n)  # distinct by construction
    misses = _distinct(lambda k: sample_non_winning(seed + 1, k), n, WinningHand.key)
    ready = _distinct(lambda k: sample_tenpai(seed + 2, k), n, lambda x: (x[0], _meld_key(x[1])))
    return Inputs(
        fan_ours=[(h.hand, h.melds, h.win_tile, h.kwargs()) for h in wins],
        fan_gb=[gb_fan_args(h) for h in wins],
        fan_gb_verbose=[gb_fan_args(h, verbose=True) for h in wins],
        reject_ours=[(h.hand, h.melds, h.win_tile, h.kwargs()) for h in misses],
        reject_gb=[gb_fan_args(h) for h in misses],
        reject_shape=[((*h.hand, h.win_tile), h.melds) for h in misses],
        wait_ours=list(ready),
        wait_gb=[(tuple(tile_code(t) for t in hand), len(melds)) for hand, melds in ready],
        wait_gb_shanten=[(tuple(gb_pack(m) for m in melds), tuple(tile_code(t) for t in hand))
                         for hand, melds in ready],
    )


def check_inputs(inp: Inputs) -> dict[str, int]:
    """Untimed: both sides agree on what each input is (so both time the same work)."""
    c = {"fan_hands": len(inp.fan_ours), "fan_total_mismatch": 0, "fan_gb_error": 0,
         "reject_hands": len(inp.reject_ours), "reject_not_rejected": 0,
         "wait_hands": len(inp.wait_ours), "wait_ready": 0, "wait_agree": 0,
         "wait_fifth_copy": 0, "wait_other": 0}
    for (hand, melds, win, flags), args in zip(inp.fan_ours, inp.fan_gb_verbose, strict=True):
        total = calculate(hand, melds, win, **flags).total
        try:
            gb_total = sum(points * count for points, count, _zh, _en in
                           MahjongGB.MahjongFanCalculator(*args))
        except TypeError:
            c["fan_gb_error"] += 1
            continue
        c["fan_total_mismatch"] += total != gb_total
    for (hand, melds, win, flags), args, (hand14, _) in zip(
            inp.reject_ours, inp.reject_gb, inp.reject_shape, strict=True):
        ours_rejects = not is_complete(hand14, melds)
        try:
            calculate(hand, melds, win, **flags)
        except NotWinError:
            pass
        else:
            ours_rejects = False
        try:
            MahjongGB.MahjongFanCalculator(*args)
            gb_rejects = False
        except TypeError as err:
            gb_rejects = "ERROR_NOT_WIN" in str(err)
        c["reject_not_rejected"] += not (ours_rejects and gb_rejects)
    for (hand, melds), (codes, n_melds) in zip(inp.wait_ours, inp.wait_gb, strict=True):
        ours = {tile_code(t) for t in waiting_tiles(hand, melds)}
        gb = gb_waiting_tiles(codes, n_melds)
        held = to_counts([*hand, *(t for m in melds for t in m.tiles)])
        c["wait_ready"] += bool(ours)
        if ours == gb:
            c["wait_agree"] += 1
        elif not gb - ours and all(held[tile_id(t)] == 4 for t in ours - gb):
            c["wait_fifth_copy"] += 1  # we also list a kind all four copies of which are held
        else:
            c["wait_other"] += 1
    return c


# ---------------------------------------------------------------- timed passes


def fan_ours(items: Inputs) -> float:
    calc = calculate
    t0 = perf_counter()
    for hand, melds, win, flags in items.fan_ours:
        calc(hand, melds, win, **flags)
    return perf_counter() - t0


def _gb_calls(items: list[tuple[Any, ...]]) -> float:
    calc = MahjongGB.MahjongFanCalculator
    t0 = perf_counter()
    for args in items:
        calc(*args)
    return perf_counter() - t0


def fan_gb(items: Inputs) -> float:
    return _gb_calls(items.fan_gb)


def fan_gb_verbose(items: Inputs) -> float:
    return _gb_calls(items.fan_gb_verbose)


def reject_ours(items: Inputs) -> float:
    calc = calculate
    t0 = perf_counter()
    for hand, melds, win, flags in items.reject_ours:
        try:  # noqa: SIM105 (try/except is cheaper than contextlib.suppress)
            calc(hand, melds, win, **flags)
        except NotWinError:
            pass
    return perf_counter() - t0


def reject_gb(items: Inputs) -> float:
    calc = MahjongGB.MahjongFanCalculator
    t0 = perf_counter()
    for args in items.reject_gb:
        try:  # noqa: SIM105 (try/except is cheaper than contextlib.suppress)
            calc(*args)
        except TypeError:
            pass
    return perf_counter() - t0


def reject_shape(items: Inputs) -> float:
    check = is_complete
    t0 = perf_counter()
    for hand14, melds in items.reject_shape:
        check(hand14, melds)
    return perf_counter() - t0


def wait_ours(items: Inputs) -> float:
    waits = waiting_tiles
    t0 = perf_counter()
    for hand, melds in items.wait_ours:
        waits(hand, melds)
    return perf_counter() - t0


def wait_gb(items: Inputs) -> float:
    waits = gb_waiting_tiles
    t0 = perf_counter()
    for codes, n_melds in items.wait_gb:
        waits(codes, n_melds)
    return perf_counter() - t0


def wait_gb_shanten(items: Inputs) -> float:
    shanten = MahjongGB.MahjongShanten
    t0 = perf_counter()
    for pack, codes in items.wait_gb_shanten:
        shanten(pack, codes)
    return perf_counter() - t0


# One round, in this order; a pass named "*.cold" follows clear_tables().
ROUND: list[tuple[str, Callable[[Inputs], float]]] = [
    ("fan.ours.cold", fan_ours), ("fan.gb", fan_gb), ("fan.ours.warm", fan_ours),
    ("fan.gb.verbose", fan_gb_verbose),
    ("reject.ours.cold", reject_ours), ("reject.gb", reject_gb),
    ("reject.ours.warm", reject_ours),
    ("reject.shape.cold", reject_shape), ("reject.shape.warm", reject_shape),
    ("wait.ours.cold", wait_ours), ("wait.gb", wait_gb), ("wait.ours.warm", wait_ours),
    ("wait.gb.shanten", wait_gb_shanten),
]


# ---------------------------------------------------------------- report


SECTIONS: list[tuple[str, str, str, list[Row]]] = [
    ("fan", "1. Fan calculation", "calls/s", [
        Row("fan.gb", "PyMahjongGB `MahjongFanCalculator`"),
        Row("fan.gb.verbose", "PyMahjongGB `MahjongFanCalculator(verbose=True)`", "fan.gb"),
        Row("fan.ours.cold", "mjenv `calculate`, cold (1st pass after `clear_tables()`)",
            "fan.gb", 1 / 5),
        Row("fan.ours.warm", "mjenv `calculate`, warm (2nd pass)", "fan.gb", 1 / 5),
    ]),
    ("reject", "2. Rejecting non-winning hands", "calls/s", [
        Row("reject.gb", "PyMahjongGB `MahjongFanCalculator` → `TypeError('ERROR_NOT_WIN')`"),
        Row("reject.ours.cold", "mjenv `calculate` → `NotWinError`, cold", "reject.gb", 1 / 2),
        Row("reject.ours.warm", "mjenv `calculate` → `NotWinError`, warm", "reject.gb", 1 / 2),
        Row("reject.shape.cold", "mjenv `decompose.is_complete` (shape only: the engine's check), "
            "cold", "reject.gb"),
        Row("reject.shape.warm", "mjenv `decompose.is_complete`, warm", "reject.gb"),
    ]),
    ("wait", "3. Waiting tiles of 13-tile hands", "hands/s", [
        Row("wait.gb", "PyMahjongGB `RegularShanten` + special-shape shantens (same answer)"),
        Row("wait.gb.shanten", "PyMahjongGB `MahjongShanten` (shanten number only)"),
        Row("wait.ours.cold", "mjenv `waiting_tiles`, cold", "wait.gb", 1 / 2),
        Row("wait.ours.warm", "mjenv `waiting_tiles`, warm", "wait.gb", 1 / 2),
        Row("wait.ours.warm", "mjenv `waiting_tiles`, warm, vs `MahjongShanten` (stricter)",
            "wait.gb.shanten"),
    ]),
]




def render(res: dict[str, Any]) -> str:
    """The tables and checks of one measured build, as Markdown."""
    n = res["sizes"]
    rates = {k: [n[k.split(".")[0]] / s for s in v] for k, v in res["seconds"].items()}
    lines = [benchkit.build_line(res), ""]
    c = res["checks"]
    notes = {
        "fan": f"{n['fan']:,} distinct winning hands of every shape (`sample_hands`). "
               f"Totals of ours and PyMahjongGB differ on {c['fan_total_mismatch']} hands; "
               f"PyMahjongGB rejected {c['fan_gb_error']}.",
        "reject": f"{n['reject']:,} distinct non-winning hands (`sample_non_winning`: half near "
                  f"misses, half random tiles around melds); hands not rejected by both: "
                  f"{c['reject_not_rejected']}.",
        "wait": f"{n['wait']:,} distinct 13-tile hands with 0-4 melds (`sample_tenpai`), "
                f"{c['wait_ready']:,} of them ready. Answers agree on {c['wait_agree']:,}; "
                f"differ only by a fifth copy (we list it, PyMahjongGB not) on "
                f"{c['wait_fifth_copy']}; waiting tiles disagreements: {c['wait_other']}.",
    }
    for section, title, unit, rows in SECTIONS:
        lines += [f"### {title}", "", notes[section], "",
                  "| System | Unit | Median | Min–max | µs/call | Ratio to PyMahjongGB "
                  "(median, min–max of rounds) | Target | Result |",
                  "|---|---|---:|---:|---:|---|---|---|"]
        for row in rows:
            cells = (row.system, unit, *benchkit.rate_cells(rates[row.key]),
                     *benchkit.ratio_cells(row, rates))
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def measure(hands: int, runs: int, seed: int) -> dict[str, Any]:
    """Measure the build of mjenv imported (see ``benchkit.measure``)."""
    files = {"mjenv.fans.calculator": calculator.__file__ or "?",
             "mjenv.decompose": decompose.__file__ or "?"}

    def prepare() -> tuple[Inputs, dict[str, int]]:
        inp = build_inputs(hands, seed)
        return inp, check_inputs(inp)

    res = benchkit.measure(files, prepare, ROUND, clear_tables, runs)
    c = res["checks"]
    res["sizes"] = {"fan": c["fan_hands"], "reject": c["reject_hands"], "wait": c["wait_hands"]}
    return res


def main(argv: Sequence[str] | None = None) -> int:
    return benchkit.main(
        argv, script=__file__, description=(__doc__ or "").split("\n\n")[0], seed=2,
        hands_help="distinct hands per section", docs_path=DOCS,
        docs_help="(re)write the report", measure=measure, render=render,
        heading="PyMahjongGB vs mjenv", docs=docs)


def docs(argv: list[str], results: list[dict[str, Any]], note: str, body: str) -> str:
    m = benchkit.machine(numpy=np.__version__)
    builds = " and ".join(benchkit.build_of(r["files"]) for r in results)
    return f"""# Benchmarks: the fan calculator and the wait finder

Written by `scripts/bench_fans.py --write-docs`; do not edit by hand. Command:

    {shlex.join(["python", "scripts/bench_fans.py", *argv])}

Date: {datetime.date.today().isoformat()}. Machine: {m['nproc']} cores, {m['cpu']};
{m['platform']}; Python {m['python']}, numpy {m['numpy']}, PyMahjongGB {m['PyMahjongGB']},
mjenv {m['mjenv']} ({m['source']}). Builds measured: {builds}.

Acceptance (issue #2): fan calculation at least 1/5 of PyMahjongGB's calls per second (the goal
is parity); rejecting a non-winning hand and `waiting_tiles` at least 1/2. The targets apply to
the build that `make` and `pip install` produce: the calculator compiled with mypyc. The pure-
Python fallback (no C compiler, or `MJENV_PURE_PYTHON=1`) is measured too, for the record.

{note}## Results

{body}
## Method

* **One process, interleaved.** Each build is measured in one process next to PyMahjongGB. A
  round times every row in turn on the same inputs; the ratio to PyMahjongGB is taken round by
  round, so drift of this shared, noisy machine hits both sides alike. Tables show the median
  and min–max over the rounds (calls or hands per second, `time.perf_counter`).
* **Distinct hands, each called once per pass.** Samples are deterministic for the seed and
  de-duplicated; every input of both sides (our tile ids and melds, PyMahjongGB's tile codes
  and packs) is built before timing, and checked untimed: both sides agree on each winning
  hand's total, both reject each non-winning hand, and both give the same waiting tiles.
* **Cold and warm.** mjenv has no whole-result cache. `clear_tables()` empties its lazily
  filled tables (per-suit readings and waits, set combinations) right before each pass
  marked cold, in every round; the warm figure is the same pass repeated later in the round.
  PyMahjongGB keeps no state between calls, so it has one figure.
* **Comparators.** PyMahjongGB is called with positional arguments and without `verbose`
  (its fastest form; `verbose=True`, which also returns points and English names as ours
  does, is listed). For waiting tiles PyMahjongGB has no direct call; the fair comparator is
  the fastest way it gives the same answer: `RegularShanten`, plus `SevenPairsShanten`,
  `ThirteenOrphansShanten` and `HonorsAndKnittedTilesShanten` without melds and
  `KnittedStraightShanten` with at most one meld, taking the union of the useful tiles where
  the shanten is 0. `MahjongShanten` returns only the shanten number, so it is a stricter
  reference, not the acceptance comparator.
* **Builds.** Installs compile `mjenv/decompose.py` and `mjenv/fans/calculator.py` with mypyc
  when a compiler is available; `--pure` measures the plain-Python sources too, in a
  subprocess importing a copy of the package without compiled modules.
* The garbage collector stays enabled, as in real use; `gc.collect()` runs before each pass.
"""


if __name__ == "__main__":
    sys.exit(main())
