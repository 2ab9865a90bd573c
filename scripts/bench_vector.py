#!/usr/bin/env python3
"""Benchmark the batch API (``mjenv.vector``) against ``raw_env``: decisions per second at
N = 1, 64 and 1,024 games, in one process and with 2 worker processes, with the ``mjenv-v1``
observation and with ``mjenv-v1+shanten`` (the hand-analysis planes made by the environment);
today's way of getting those planes (``mjenv_agents.features.augment`` per decision) for
reference; and the memory a game takes.

What is counted (per second of wall time, ``time.perf_counter``):

* **raw_env**: the standard AEC loop (``agent_iter`` / ``last`` / ``step``) with a random masked
  agent, as scripts/bench_env.py: a *decision* is a step of a live agent; hand ``h`` is
  ``reset(seed=seed + h)``, timed.
* **raw_env + features**: the same loop computing the ``shanten-v1`` planes of every decision
  from the observation (``augment``), as a policy with ``features="shanten-v1"`` does.
* **vector**: ``VectorMahjongEnv(N, num_workers=w, encoder=...)``: every step gives each game a
  random legal action (one vectorised draw over the batch's masks) and counts N decisions;
  finished hands auto-reset inside the step (timed). Building the batch, starting the workers,
  ``reset`` and ``--warmup`` steps (so that the games are spread over their hands) are not
  timed.

Method: a *round* runs every pass in turn, ``gc.collect()`` before each; ratios to
``raw_env`` are taken round by round; the table gives medians and min–max over the rounds.
Each pass plays about ``--decisions`` decisions (a fifth of that for the passes with the
analysis planes, which are slower). Memory: the batch's arrays per game, and the Python heap
per game (``tracemalloc``: the batch built, reset and warmed up, divided by N; numpy arrays
included), at N = 1,024 in one process.

    python scripts/bench_vector.py [--decisions 30000] [--runs 3] [--warmup 30] [--seed 0]
                                   [--quick] [--write-docs [PATH]]

``--write-docs`` rewrites only this script's marked section of ``docs/benchmarks.md``
(appended at the end when the markers are absent). Run it alone on the machine: worker passes
need the cores to themselves.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import random
import shlex
import statistics
import sys
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from time import perf_counter
from typing import Any

import benchkit
import numpy as np
from benchkit import ROOT

import mjenv
import mjenv.decompose
import mjenv.fans.calculator
import mjenv.shanten
from mjenv.vector import VectorMahjongEnv

DOCS = ROOT / "docs" / "benchmarks.md"
BEGIN = "<!-- bench_vector.py: begin (written by scripts/bench_vector.py --write-docs) -->"
END = "<!-- bench_vector.py: end -->"
SHANTEN = "mjenv-v1+shanten"
SIZES = (1, 64, 1024)
WORKERS = (0, 2)


@dataclass(frozen=True)
class Case:
    """One timed pass: a key, its label, and how to run it (decisions wanted, seed) ->
    (decisions made, seconds)."""

    key: str
    label: str
    n: int | str
    workers: int
    encoder: str
    slow: bool
    run: Callable[[int, int], tuple[int, float]]


# ---------------------------------------------------------------- timed passes


def raw_loop(encoder: str, features: bool) -> Callable[[int, int], tuple[int, float]]:
    """The AEC loop (see the module docstring), ``features``: with ``augment`` per decision."""
    augment: Callable[..., Any] | None = None
    if features:
        import mjenv_agents.features as agent_features

        augment = agent_features.augment

    def run(decisions: int, seed: int) -> tuple[int, float]:
        env = mjenv.raw_env(encoder=encoder)
        randrange = random.Random(seed).randrange
        flatnonzero = np.flatnonzero
        made, hand = 0, 0
        gc.collect()
        t0 = perf_counter()
        while made < decisions:
            env.reset(seed=seed + hand)
            hand += 1
            for _agent in env.agent_iter():
                obs, _reward, termination, truncation, _info = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                mask = obs["action_mask"]
                if augment is not None:
                    augment("shanten-v1", obs["observation"][None], mask[None] != 0)
                legal = flatnonzero(mask)
                env.step(int(legal[randrange(len(legal))]))
                made += 1
        return made, perf_counter() - t0

    return run


def random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row (the largest random key among the legal)."""
    actions: np.ndarray = np.argmax(rng.random(masks.shape) * masks, axis=1)
    return actions


def vector_loop(n: int, workers: int, encoder: str, warmup: int,
                ) -> Callable[[int, int], tuple[int, float]]:
    def run(decisions: int, seed: int) -> tuple[int, float]:
        rng = np.random.default_rng(seed)
        with VectorMahjongEnv(n, num_workers=workers, encoder=encoder) as env:
            batch = env.reset(seed=seed)
            for _ in range(warmup):
                batch = env.step(random_actions(rng, batch.action_mask))
            steps = max(1, -(-decisions // n))
            gc.collect()
            t0 = perf_counter()
            for _ in range(steps):
                batch = env.step(random_actions(rng, batch.action_mask))
            seconds = perf_counter() - t0
        return steps * n, seconds

    return run


def cases(warmup: int, quick: bool) -> list[Case]:
    out = [Case("raw", "`raw_env`", "—", 0, "mjenv-v1", False, raw_loop("mjenv-v1", False)),
           Case("raw.features", "`raw_env` + `augment` per decision", "—", 0, SHANTEN, True,
                raw_loop("mjenv-v1", True)),
           Case("raw.shanten", "`raw_env`", "—", 0, SHANTEN, True, raw_loop(SHANTEN, False))]
    for encoder in ("mjenv-v1", SHANTEN):
        for n in SIZES if not quick else (1, 64):
            for w in WORKERS:
                if n == 1 and w:
                    continue  # one game cannot be split
                out.append(Case(f"vec.{encoder}.{n}.{w}", "`VectorMahjongEnv`", n, w, encoder,
                                encoder == SHANTEN,
                                vector_loop(n, w, encoder, warmup if n > 1 else 0)))
    return out


def run_rounds(todo: list[Case], decisions: int, runs: int, seed: int,
               ) -> dict[str, list[float]]:
    rates: dict[str, list[float]] = {c.key: [] for c in todo}
    for r in range(runs):
        for c in todo:
            made, seconds = c.run(decisions // 5 if c.slow else decisions, seed + r)
            rates[c.key].append(made / seconds)
            print(f"  round {r + 1}/{runs} {c.key:28} {made / seconds:>10,.0f} decisions/s",
                  file=sys.stderr, flush=True)
    return rates


# ---------------------------------------------------------------- memory


def memory_per_game(n: int, encoder: str, warmup: int, seed: int) -> tuple[int, float]:
    """(the batch arrays' bytes per game, the Python heap per game after reset and warm-up
    steps) at ``n`` games in this process."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        env = VectorMahjongEnv(n, encoder=encoder)
        batch = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(warmup):
            batch = env.step(random_actions(rng, batch.action_mask))
        gc.collect()
        heap = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    arrays = env.bytes_per_game
    env.close()
    return arrays, heap / n


def raw_memory(seed: int, count: int = 64) -> float:
    """The Python heap of one ``raw_env`` mid-hand (``count`` envs, reset, 40 decisions)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        envs = [mjenv.raw_env() for _ in range(count)]
        rng = random.Random(seed)
        for i, env in enumerate(envs):
            env.reset(seed=seed + i)
            for _ in range(40):
                if all(env.terminations.values()):
                    break
                mask = env.observe(env.agent_selection)["action_mask"]
                legal = np.flatnonzero(mask)
                env.step(int(legal[rng.randrange(len(legal))]))
        gc.collect()
        heap = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    del envs
    return heap / count


# ---------------------------------------------------------------- report


def num(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def render(todo: list[Case], rates: dict[str, list[float]],
           memory: list[tuple[str, int, float]]) -> str:
    lines = ["| System | N | Workers | Encoder | Decisions/s, median (min–max) | µs/decision "
             "| Ratio to `raw_env` `mjenv-v1` (median, min–max) |",
             "|---|---:|---:|---|---:|---:|---|"]
    base = rates["raw"]
    for c in todo:
        r = rates[c.key]
        med = statistics.median(r)
        ratios = [a / b for a, b in zip(r, base, strict=True)]
        lines.append(f"| {c.label} | {c.n} | {c.workers} | `{c.encoder}` | {num(med)} "
                     f"({num(min(r))}–{num(max(r))}) | {1e6 / med:.1f} | "
                     f"{statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f}) |")
    lines += ["", "Memory per game (Python heap by `tracemalloc`, numpy arrays included):", "",
              "| What | Batch arrays / game | Heap / game |", "|---|---:|---:|"]
    for label, arrays, heap in memory:
        lines.append(f"| {label} | {arrays / 1024:,.1f} KiB | {heap / 1024:,.1f} KiB |")
    return "\n".join(lines)


def build_files() -> dict[str, str]:
    return {m.__name__: m.__file__ or "" for m in (mjenv.decompose, mjenv.shanten,
                                                   mjenv.fans.calculator)}


def section(argv: list[str], body: str, args: argparse.Namespace,
            load: tuple[float, float]) -> str:
    cmd = shlex.join(["python", "scripts/bench_vector.py", *argv])
    m = benchkit.machine(gymnasium=version("gymnasium"), numpy=np.__version__)
    files = build_files()
    return "\n".join([
        BEGIN,
        "# Benchmark: the batch API (`mjenv.vector`) and the analysis-plane encoder",
        "",
        "Written by `scripts/bench_vector.py --write-docs` (this section only; do not edit by "
        "hand). Command:",
        "",
        f"    {cmd}",
        "",
        f"Date: {datetime.date.today().isoformat()}. Machine: {m['nproc']} cores, {m['cpu']}; "
        f"{m['platform']}; Python {m['python']}, numpy {m['numpy']}, gymnasium "
        f"{m['gymnasium']}; mjenv {m['mjenv']} ({m['source']}). Build measured: "
        f"**{benchkit.build_of(files)}** "
        f"({', '.join(f'`{Path(f).name}`' for f in files.values())}).",
        "",
        f"About {args.decisions:,} decisions per pass ({args.decisions // 5:,} with the "
        f"analysis planes), {args.runs} interleaved rounds, seed {args.seed}, "
        f"{args.warmup} untimed warm-up steps per batch; random masked actions everywhere. "
        f"Load average (1 min) of the machine before / after the rounds: {load[0]:.1f} / "
        f"{load[1]:.1f} (other jobs share the {m['nproc']} cores; worker passes suffer most).",
        "",
        body,
        "",
        "What is compared: see the docstring of scripts/bench_vector.py. The batch plays the "
        "same games as `raw_env` (tests/vector); its per-decision work is the engine step, the "
        "seat view's catch-up and the encoder, as in `raw_env`, without PettingZoo's "
        "bookkeeping. Workers: each of the 2 processes steps half the games over shared "
        "arrays; the parent only draws the actions, so on a machine shared with other jobs "
        "the gain is bounded by the cores actually free.",
        END,
    ])


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--decisions", type=int, default=30_000, help="decisions per pass")
    p.add_argument("--runs", type=int, default=3, help="interleaved rounds")
    p.add_argument("--warmup", type=int, default=30, help="untimed steps per batch")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help="N = 1 and 64 only (a smoke run)")
    p.add_argument("--write-docs", nargs="?", const=str(DOCS), metavar="PATH",
                   help=f"write the section into PATH (default {DOCS.relative_to(ROOT)})")
    args = p.parse_args(argv)
    if args.decisions < 10 or args.runs < 1 or args.warmup < 0:
        p.error("--decisions >= 10, --runs >= 1, --warmup >= 0")
    argv_used = list(sys.argv[1:] if argv is None else argv)
    todo = cases(args.warmup, args.quick)
    load_before = os.getloadavg()[0]
    rates = run_rounds(todo, args.decisions, args.runs, args.seed)
    load = (load_before, os.getloadavg()[0])
    big = SIZES[-1] if not args.quick else 64
    memory = [("`raw_env` (mid-hand)", 0, raw_memory(args.seed))]
    for encoder in ("mjenv-v1", SHANTEN):
        arrays, heap = memory_per_game(big, encoder, args.warmup, args.seed)
        memory.append((f"`VectorMahjongEnv`, N = {big:,}, `{encoder}`", arrays, heap))
    body = render(todo, rates, memory)
    print(f"\nload average (1 min) before / after: {load[0]:.1f} / {load[1]:.1f}\n")
    print(body)
    if args.write_docs:
        path = Path(args.write_docs)
        benchkit.write_marked_section(path, section(argv_used, body, args, load), BEGIN, END)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
