#!/usr/bin/env python3
"""How a batch's cost per decision moves with its size N, on one core, next to RiichiEnv's
tables stepped in turn: where a batch leaves the CPU caches, and what that costs each.

Why: issue 15 asks one core at N = 1,024 for RiichiEnv's single-table rate. A batch visits
every game once a step, so once N games' state is larger than the caches, each game's state
has left them by its next turn and every decision pays its misses; a single table never does.
This script measures the curve that explains the acceptance figure: microseconds a decision
at each N for

* ``VectorMahjongEnv(N, encoder="mjenv-v1")``, one process (scripts/bench_vector.py's loop:
  random masked actions drawn over the batch's masks, finished hands dealt again inside the
  timed steps);
* the same with ``observation_dtype="uint8"`` (the encoder's counts, a quarter of the bytes
  written a step);
* N RiichiEnv tables stepped in turn, one step of each per sweep (scripts/bench_vector.py's
  in-turn pass: each asked player encodes its observation and mask and picks a random legal
  action);
* RiichiEnv's single table as scripts/bench_env.py plays it: the reference of the acceptance
  ratios.

Each pass plays ``--decisions`` decisions at least and at least ``--min-steps`` steps (sweeps)
of its N games, so every game ends a hand and is dealt the next one inside the timed window.
A *round* runs every pass once, ``gc.collect()`` before each; ratios are taken round by round
and the table gives medians (min–max over the rounds). The batch's *state* is N times the
memory a game takes (the Python heap by ``tracemalloc`` after reset and warm-up, plus the
batch arrays' row), set against the last-level cache the kernel reports: the point where the
curve turns up. RiichiEnv's tables are not measured in memory (Rust allocations are invisible
to ``tracemalloc``).

    python scripts/bench_batch_size.py [--sizes 1,16,64,128,256,512,1024,2048]
        [--decisions 30000] [--runs 3] [--warmup 30] [--min-steps 120] [--seed 0]
        [--peer-games 200] [--write-docs [PATH]] [--plot PATH]

``--write-docs`` rewrites only this script's marked section of ``docs/benchmarks.md`` and draws
the curve beside it, into ``docs/img/batch_size.png`` (``--plot`` elsewhere). Run it alone on the
machine: the figures are the caches', and another job's working set shrinks them.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import shlex
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import bench_env
import bench_vector
import benchkit
import numpy as np
from benchkit import ROOT

DOCS = ROOT / "docs" / "benchmarks.md"
PLOT = ROOT / "docs" / "img" / "batch_size.png"
BEGIN = "<!-- bench_batch_size.py: begin (written by scripts/bench_batch_size.py --write-docs) -->"
END = "<!-- bench_batch_size.py: end -->"
SIZES = (1, 16, 64, 128, 256, 512, 1024, 2048)
REFERENCE = "riichienv"
"""The key of RiichiEnv's single-table pass (the acceptance's reference)."""
SYSTEMS = {"f32": "`mjenv-v1`, float32", "u8": "`mjenv-v1`, `uint8` counts",
           "riichienv": "RiichiEnv, N tables in turn"}


@dataclass(frozen=True)
class Pass:
    """One timed pass: its key (system and N), and how to run it (decisions wanted, seed) ->
    (decisions made, seconds)."""

    key: str
    run: Callable[[int, int], tuple[int, float]]


def key(system: str, n: int) -> str:
    return f"{system}.{n}"


def passes(sizes: Sequence[int], warmup: int, min_steps: int, peer_games: int) -> list[Pass]:
    """RiichiEnv's single table and its tables in turn (where it is installed), then mjenv's
    batch in float32 and in counts, at every size."""
    out = []
    riichienv = bench_env.load_peer("riichienv") if peer_games else None
    if peer_games and riichienv is None:
        print("  riichienv is not installed: its passes are skipped "
              "(pip install -e '.[bench]')", file=sys.stderr)
    if riichienv is not None:
        out.append(Pass(REFERENCE, bench_vector.peer_loop("riichienv", riichienv, peer_games)))
    for n in sizes:
        if riichienv is not None:
            out.append(Pass(key("riichienv", n),
                            bench_vector.riichienv_in_turn(riichienv, n, min_steps)))
        for system, dtype in (("f32", "float32"), ("u8", "uint8")):
            out.append(Pass(key(system, n),
                            bench_vector.vector_loop(n, 0, "mjenv-v1", warmup if n > 1 else 0,
                                                     min_steps, dtype=dtype)))
    return out


def run_rounds(todo: Sequence[Pass], decisions: int, runs: int, seed: int,
               ) -> dict[str, list[float]]:
    """Microseconds a decision of every pass, round by round."""
    us: dict[str, list[float]] = {p.key: [] for p in todo}
    for r in range(runs):
        for p in todo:
            gc.collect()
            made, seconds = p.run(decisions, seed + r)
            us[p.key].append(seconds / made * 1e6)
            print(f"  round {r + 1}/{runs} {p.key:16} {us[p.key][-1]:7.2f} µs a decision",
                  file=sys.stderr, flush=True)
    return us


def last_level_cache() -> int | None:
    """The largest CPU cache cpu0 reports (bytes), or None where the kernel does not say."""
    sizes = []
    for d in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*"):
        try:
            text = (d / "size").read_text().strip()
        except OSError:
            continue
        scale = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}.get(text[-1:], 1)
        digits = text.rstrip("KMG")
        if digits.isdigit():
            sizes.append(int(digits) * scale)
    return max(sizes) if sizes else None


def median_ratio(a: Sequence[float], b: Sequence[float]) -> float:
    """The median over rounds of ``b[i] / a[i]``: the rate of ``a`` over the rate of ``b``
    when both are times a decision."""
    return statistics.median(y / x for x, y in zip(a, b, strict=True))


def cell(times: Sequence[float] | None) -> str:
    if not times:
        return "—"
    return f"{statistics.median(times):.1f} ({min(times):.1f}–{max(times):.1f})"


def render(sizes: Sequence[int], us: dict[str, list[float]], per_game: float,
           cache: int | None) -> tuple[str, list[str]]:
    """The table and the findings (the lines printed under it)."""
    ref = us.get(REFERENCE)
    lines = ["| N | " + " | ".join(f"{label}: µs/decision" for label in SYSTEMS.values())
             + " | `mjenv-v1` / RiichiEnv's one table | `mjenv-v1` / RiichiEnv's N tables "
             "| the batch's state |",
             "|---:|" + "---:|" * (len(SYSTEMS) + 3)]
    for n in sizes:
        f32, peer = us[key("f32", n)], us.get(key("riichienv", n))
        row = [f"{n:,}", *(cell(us.get(key(s, n))) for s in SYSTEMS),
               f"{median_ratio(f32, ref):.2f}" if ref else "—",
               f"{median_ratio(f32, peer):.2f}" if peer else "—",
               f"{n * per_game / 2 ** 20:,.1f} MB"]
        lines.append("| " + " | ".join(row) + " |")
    findings = []
    if ref:
        findings.append(f"- RiichiEnv's single table: {cell(ref)} µs a decision.")
        at_par = [n for n in sizes if median_ratio(us[key("f32", n)], ref) >= 1.0]
        findings.append(
            "- `mjenv-v1` at least as fast as RiichiEnv's one table, one core: "
            + (f"N = {', '.join(f'{n:,}' for n in at_par)}" if at_par else "at no N")
            + f" of {', '.join(f'{n:,}' for n in sizes)}.")
        biggest = max(sizes)
        peer = us.get(key("riichienv", biggest))
        if peer:
            findings.append(f"- RiichiEnv's own {biggest:,} tables in turn / its one table: "
                            f"{median_ratio(peer, ref):.2f}.")
    small, big = min(sizes), max(sizes)
    findings.append(f"- `mjenv-v1` at N = {big:,} / at N = {small:,}: "
                    f"{median_ratio(us[key('f32', big)], us[key('f32', small)]):.2f} "
                    "(the rate a decision).")
    findings.append(f"- A game's state: {per_game / 1024:.1f} KiB (heap and array row, "
                    "`mjenv-v1`, float32).")
    if cache:
        fits = [n for n in sizes if n * per_game <= cache]
        findings.append(f"- The last-level cache the kernel reports: {cache / 2 ** 20:.0f} MB "
                        "(shared with whatever else runs); the batch's state fits in it up to "
                        f"N = {max(fits) if fits else 0:,} of these sizes.")
    return "\n".join(lines), findings


def plot(path: Path, sizes: Sequence[int], us: dict[str, list[float]], per_game: float,
         cache: int | None) -> None:
    """The curve: medians with the rounds' range, log2 N; RiichiEnv's one table as a line and
    the N whose state fills the last-level cache marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.2), dpi=110)
    for system, label in SYSTEMS.items():
        rows = [(n, us[key(system, n)]) for n in sizes if us.get(key(system, n))]
        if not rows:
            continue
        xs = [n for n, _ in rows]
        med = [statistics.median(t) for _, t in rows]
        low = [m - min(t) for m, (_, t) in zip(med, rows, strict=True)]
        high = [max(t) - m for m, (_, t) in zip(med, rows, strict=True)]
        ax.errorbar(xs, med, yerr=[low, high], marker="o", capsize=3,
                    label=label.replace("`", ""))
    ref = us.get(REFERENCE)
    if ref:
        ax.axhline(statistics.median(ref), color="grey", linestyle="--",
                   label="RiichiEnv, one table (the reference)")
    if cache:
        ax.axvline(cache / per_game, color="grey", linestyle=":",
                   label="the batch's state = the last-level cache")
    ax.set_xscale("log", base=2)
    ax.set_xticks(list(sizes), [f"{n:,}" for n in sizes])
    ax.set_xlabel("games in the batch (N), one core")
    ax.set_ylabel("µs a decision (lower is faster)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("A batch's cost a decision by its size", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def section(argv: Sequence[str], args: argparse.Namespace, table: str, findings: list[str],
            load: tuple[float, float], docs: Path, image: Path | None) -> str:
    cmd = shlex.join(["python", "scripts/bench_batch_size.py", *argv])
    m = benchkit.machine(numpy=np.__version__)
    files = bench_vector.build_files()
    shown = []
    if image is not None:
        relative = Path(os.path.relpath(image, docs.parent)).as_posix()
        shown = [f"![µs a decision by batch size]({relative})", ""]
    return "\n".join([
        BEGIN,
        "# Benchmark: a batch's cost a decision by its size",
        "",
        "Written by `scripts/bench_batch_size.py --write-docs` (this section only; do not "
        "edit by hand). Command:",
        "",
        f"    {cmd}",
        "",
        f"Date: {datetime.date.today().isoformat()}. Machine: {m['nproc']} cores, {m['cpu']}; "
        f"{m['platform']}; Python {m['python']}, numpy {m['numpy']}; mjenv {m['mjenv']} "
        f"({m['source']}). Build measured: **{benchkit.build_of(files)}**. One process, one "
        f"core; at least {args.decisions:,} decisions and {args.min_steps} steps a pass, "
        f"{args.runs} interleaved rounds, seed {args.seed}, {args.warmup} untimed warm-up "
        f"steps a batch. Load average (1 min) before / after: {load[0]:.1f} / {load[1]:.1f}.",
        "",
        *shown,
        table,
        "",
        *findings,
        "",
        "Medians (min–max over the rounds); ratios are rates (decisions a second) taken round "
        "by round. How to read it: docs/vector.md, \"Choosing N\".",
        END,
    ])


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"--sizes takes integers separated by commas, not "
                                         f"{text!r}") from None
    if not sizes or sizes[0] < 1:
        raise argparse.ArgumentTypeError(f"--sizes must be at least 1 each, got {text!r}")
    return sizes


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--sizes", type=parse_sizes, default=list(SIZES),
                   help="batch sizes, comma-separated (default %(default)s)")
    p.add_argument("--decisions", type=int, default=30_000,
                   help="decisions a pass at least (default %(default)s)")
    p.add_argument("--runs", type=int, default=3, help="interleaved rounds (default %(default)s)")
    p.add_argument("--warmup", type=int, default=30,
                   help="untimed steps a batch (default %(default)s)")
    p.add_argument("--min-steps", type=int, default=bench_vector.MIN_STEPS,
                   help="timed steps (sweeps) a pass at least (default %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="(default %(default)s)")
    p.add_argument("--peer-games", type=int, default=200,
                   help="games of RiichiEnv's single-table pass; 0: no RiichiEnv passes "
                        "(default %(default)s)")
    p.add_argument("--write-docs", nargs="?", const=str(DOCS), metavar="PATH",
                   help=f"write the section into PATH (default {DOCS.relative_to(ROOT)}) and "
                        "the plot beside it (img/batch_size.png)")
    p.add_argument("--plot", metavar="PATH", help="draw the curve into PATH (a PNG)")
    args = p.parse_args(argv)
    if (args.decisions < 1 or args.runs < 1 or args.warmup < 0 or args.min_steps < 1
            or args.peer_games < 0):
        p.error("--decisions >= 1, --runs >= 1, --warmup >= 0, --min-steps >= 1, "
                "--peer-games >= 0")
    used = list(sys.argv[1:] if argv is None else argv)
    todo = passes(args.sizes, args.warmup, args.min_steps, args.peer_games)
    load_before = os.getloadavg()[0]
    us = run_rounds(todo, args.decisions, args.runs, args.seed)
    load = (load_before, os.getloadavg()[0])
    arrays, heap = bench_vector.memory_per_game(min(256, max(args.sizes)), "mjenv-v1",
                                                args.warmup, args.seed)
    cache = last_level_cache()
    table, findings = render(args.sizes, us, arrays + heap, cache)
    print(f"\nload average (1 min) before / after: {load[0]:.1f} / {load[1]:.1f}\n")
    print(table, *findings, sep="\n")
    image = (Path(args.plot) if args.plot else
             Path(args.write_docs).parent / PLOT.relative_to(DOCS.parent) if args.write_docs
             else None)
    if image is not None:
        plot(image, args.sizes, us, arrays + heap, cache)
        print(f"drew {image}")
    if args.write_docs:
        path = Path(args.write_docs)
        text = section(used, args, table, findings, load, path, image)
        benchkit.write_marked_section(path, text, BEGIN, END)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
