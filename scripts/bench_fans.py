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

import argparse
import datetime
import gc
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from time import perf_counter
from typing import Any

import MahjongGB
import numpy as np

import mjenv
from mjenv import decompose
from mjenv.decompose import is_complete, waiting_tiles
from mjenv.fans import NotWinError, calculate, calculator, clear_tables
from mjenv.fans.generate import WinningHand, sample_hands, sample_non_winning, sample_tenpai
from mjenv.melds import CHOW, CONCEALED_KONG, PUNG, Meld
from mjenv.tiles import tile_code, tile_id, to_counts

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "benchmarks.md"
ACCEPT_HANDS = 10_000
ACCEPT_RUNS = 5

# ---------------------------------------------------------------- PyMahjongGB's input form


def gb_pack(m: Meld) -> tuple[str, str, int]:
    """A meld as PyMahjongGB's pack: offer = 4 - from; a chow names its middle tile and the
    position (1..3) of the claimed tile; a concealed kong has offer 0."""
    if m.kind == CHOW:
        claimed = m.claimed if m.claimed is not None else m.tiles[1]
        return ("CHI", tile_code(m.tiles[1]), claimed - m.tiles[0] + 1)
    if m.kind == CONCEALED_KONG:
        return ("GANG", tile_code(m.tiles[0]), 0)
    offer = 4 - (m.from_offset if m.from_offset is not None else 3)
    return ("PENG" if m.kind == PUNG else "GANG", tile_code(m.tiles[0]), offer)


def gb_fan_args(h: WinningHand, verbose: bool = False) -> tuple[Any, ...]:
    """Positional arguments of ``MahjongFanCalculator``."""
    return (tuple(gb_pack(m) for m in h.melds), tuple(tile_code(t) for t in h.hand),
            tile_code(h.win_tile), h.flowers, h.self_drawn, h.last_copy, h.kong_win,
            h.last_tile, h.seat_wind, h.prevalent_wind, verbose)


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


def run_rounds(inp: Inputs, runs: int) -> dict[str, list[float]]:
    seconds: dict[str, list[float]] = {name: [] for name, _ in ROUND}
    for r in range(runs):
        t0 = perf_counter()
        for name, timed in ROUND:
            if name.endswith(".cold"):
                clear_tables()
            gc.collect()
            seconds[name].append(timed(inp))
        print(f"  round {r + 1}/{runs}: {perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return seconds


# ---------------------------------------------------------------- report


@dataclass(frozen=True)
class Row:
    key: str
    system: str
    ref: str | None = None  # ratio against this row's key, round by round
    target: float | None = None  # acceptance: median ratio at least this


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


def _num(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def _ratio(x: float) -> str:
    return f"{x:.2f}" if x < 10 else f"{x:.1f}"


def build_of(files: dict[str, str]) -> str:
    kinds = {Path(f).suffix == ".py" for f in files.values()}
    if kinds == {True}:
        return "pure Python"
    if kinds == {False}:
        return "compiled (mypyc)"
    return "mixed"


def render(res: dict[str, Any]) -> str:
    """The tables and checks of one measured build, as Markdown."""
    n = res["sizes"]
    rates = {k: [n[k.split(".")[0]] / s for s in v] for k, v in res["seconds"].items()}
    files = ", ".join(f"`{Path(f).name}`" for f in res["files"].values())
    stale = ", ".join(res["stale"])
    stale = f" — **STALE, older than the source: {stale}**" if stale else ""
    lines = [f"Build measured: **{build_of(res['files'])}** ({files}){stale}", ""]
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
            r = rates[row.key]
            med = statistics.median(r)
            ratio = target = result = "—"
            if row.ref is not None:
                per_round = [a / b for a, b in zip(r, rates[row.ref], strict=True)]
                m = statistics.median(per_round)
                ratio = f"{_ratio(m)} ({_ratio(min(per_round))}–{_ratio(max(per_round))})"
                if row.target is not None:
                    target = f"≥ 1/{round(1 / row.target)}"
                    result = "pass" if m >= row.target else "**FAIL**"
            lines.append(f"| {row.system} | {unit} | {_num(med)} | {_num(min(r))}–{_num(max(r))}"
                         f" | {1e6 / med:.2f} | {ratio} | {target} | {result} |")
        lines.append("")
    return "\n".join(lines)


def machine() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": str(os.cpu_count()), "cpu": cpu, "python": platform.python_version(),
            "platform": platform.platform(), "numpy": np.__version__,
            "PyMahjongGB": version("PyMahjongGB"), "mjenv": mjenv.__version__,
            "source": source_revision()}


def source_revision() -> str:
    """The git commit measured, and whether mjenv/ had uncommitted changes."""
    try:
        git = ["git", "-C", str(ROOT)]
        head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run([*git, "status", "--porcelain", "--", "mjenv"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return f"commit {head}" + (" with uncommitted changes in mjenv/" if dirty else "")


def stale_modules(files: dict[str, str]) -> list[str]:
    """Compiled modules older than their source (they would measure old code)."""
    out = []
    for f in map(Path, files.values()):
        source = f.with_name(f.name.split(".")[0] + ".py")
        if f.suffix != ".py" and source.exists() and source.stat().st_mtime > f.stat().st_mtime:
            out.append(f.name)
    return out


def measure(hands: int, runs: int, seed: int) -> dict[str, Any]:
    files = {"mjenv.fans.calculator": calculator.__file__ or "?",
             "mjenv.decompose": decompose.__file__ or "?"}
    print(f"mjenv from {Path(mjenv.__file__ or '?').parent}: {build_of(files)}", file=sys.stderr)
    stale = stale_modules(files)
    if stale:
        print(f"WARNING: stale compiled modules (older than their source): {stale}",
              file=sys.stderr)
    t0 = perf_counter()
    inp = build_inputs(hands, seed)
    checks = check_inputs(inp)
    print(f"  inputs built and checked: {perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    sizes = {"fan": len(inp.fan_ours), "reject": len(inp.reject_ours), "wait": len(inp.wait_ours)}
    return {"files": files, "stale": stale, "sizes": sizes, "checks": checks,
            "seconds": run_rounds(inp, runs)}


def copy_pure_package(tmp: str) -> None:
    """Copy the mjenv package's .py files (nothing compiled) into ``tmp``."""
    shutil.copytree(Path(mjenv.__file__ or "").parent, Path(tmp) / "mjenv",
                    ignore=lambda d, names: [x for x in names if x == "__pycache__" or (
                        (Path(d) / x).is_file() and not x.endswith(".py"))])


def measure_pure(tmp: str, hands: int, runs: int, seed: int) -> dict[str, Any]:
    """The same measurement in a subprocess importing the .py-only copy in ``tmp``."""
    out = Path(tmp) / "result.json"
    cmd = [sys.executable, __file__, "--hands", str(hands), "--runs", str(runs),
           "--seed", str(seed), "--emit-json", str(out)]
    with subprocess.Popen(cmd, env={**os.environ, "PYTHONPATH": tmp}, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:  # its progress, passed on as it comes
            print(f"  [pure] {line}", end="", file=sys.stderr, flush=True)
    if proc.returncode:
        raise RuntimeError(f"the pure-Python run failed (exit status {proc.returncode})")
    res: dict[str, Any] = json.loads(out.read_text())
    if not all(f.startswith(tmp) for f in res["files"].values()):
        raise RuntimeError(f"the pure-Python run imported {res['files']}, not the copy")
    return res


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=ACCEPT_HANDS, help="distinct hands per section")
    p.add_argument("--runs", type=int, default=ACCEPT_RUNS, help="interleaved rounds")
    p.add_argument("--seed", type=int, default=2, help="sample seed")
    p.add_argument("--pure", action="store_true", help="also measure the pure-Python build")
    p.add_argument("--write-docs", nargs="?", const=str(DOCS), metavar="PATH",
                   help=f"(re)write the report (default {DOCS.relative_to(ROOT)})")
    p.add_argument("--emit-json", help=argparse.SUPPRESS)  # used by --pure's subprocess
    args = p.parse_args(argv)
    if args.hands < 1 or args.runs < 1:
        p.error("--hands and --runs must be positive")
    argv_used = list(sys.argv[1:] if argv is None else argv)

    with tempfile.TemporaryDirectory(prefix="mjenv-pure-") as tmp:
        if args.pure and not args.emit_json:
            copy_pure_package(tmp)  # now, so both builds measure the same sources
        results = [measure(args.hands, args.runs, args.seed)]
        if args.emit_json:
            Path(args.emit_json).write_text(json.dumps(results[0]))
            return 0
        if args.pure:
            if build_of(results[0]["files"]) == "pure Python":
                print("--pure: the main run already measured pure Python", file=sys.stderr)
            else:
                results.append(measure_pure(tmp, args.hands, args.runs, args.seed))

    smoke = args.hands < ACCEPT_HANDS or args.runs < ACCEPT_RUNS
    body = "\n".join(render(res) for res in results)
    note = (f"**Smoke run, not an acceptance measurement** (acceptance needs --hands ≥ "
            f"{ACCEPT_HANDS:,} and --runs ≥ {ACCEPT_RUNS}).\n\n" if smoke else "")
    print(f"\nPyMahjongGB vs mjenv, {args.runs} interleaved rounds, seed {args.seed}\n")
    print(note + body)
    if args.write_docs:
        path = Path(args.write_docs)
        path.write_text(docs(argv_used, results, note, body), encoding="utf-8")
        print(f"wrote {path}")
    return 0


def docs(argv: list[str], results: list[dict[str, Any]], note: str, body: str) -> str:
    m = machine()
    builds = " and ".join(build_of(r["files"]) for r in results)
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
