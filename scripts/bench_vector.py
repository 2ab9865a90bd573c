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
* **peers** (where installed, as scripts/bench_env.py plays them, ``--peer-games`` games a
  pass): RiichiEnv (Rust, the reference of the acceptance ratios), pymahjong (C++) and RLCard
  (its steps are the unit); and RiichiEnv's tables stepped *in turn*, as many as the batch
  sizes above one (64 and 1,024), one step of each per sweep as a batch is stepped. A batch
  visits every game once a step, so past a few dozen games each one's state has left the CPU
  caches by its next turn; the in-turn passes show what that costs a Rust core, and the ratio
  of its 1,024 tables to its one table is printed with the acceptance lines.
* **vector**: ``VectorMahjongEnv(N, num_workers=w, encoder=...)``: every step gives each game a
  random legal action (one vectorised draw over the batch's masks) and counts N decisions;
  finished hands auto-reset inside the step (timed). Building the batch, starting the workers,
  ``reset`` and ``--warmup`` steps are not timed. Each pass times at least ``--min-steps``
  steps (120: a hand of random play lasts 85-116 decisions, 106 on average), so every game
  ends a hand and deals the next one inside the timed window whatever N is: the games of a
  batch start together, and a pass of a few dozen steps at N = 1,024 would time only the
  middle of their first hands, never a hand's end or a new deal (the first tables, until
  2026-12-02, did so at N = 1,024). RiichiEnv's tables in turn sweep as many times.
* **vector, workers left to the scheduler** (N = 1,024, 2 workers): the same with
  ``pin_workers=False``. The passes above use the default, ``pin_workers="auto"``, which keeps
  each worker to a CPU of its own where the workers spread evenly over the CPUs (2 workers on
  this 2-core machine); mjenv.vector.workers says why that matters with as many workers as
  cores. The header says how ``"auto"`` chose on the machine measured.
* **vector, no observation written** (N = 64 and 1,024, one core): the same loop over
  :class:`NullEncoder`, ``mjenv-v1``'s shape with nothing written, so the passes split a
  decision's cost between the observation and everything else (engine step, seat view's
  catch-up, mask, the batch's own work); the split is printed under the acceptance lines
  (docs/vector-performance.md reads it: what a large batch's extra time is spent on).

Method: a *round* runs every pass in turn, ``gc.collect()`` before each; ratios to
``raw_env`` and to RiichiEnv are taken round by round; the table gives medians and min–max over
the rounds. Acceptance (issue 15), checked and printed at the end: one core, N = 1,024,
``mjenv-v1`` at least 1.0x RiichiEnv; with the analysis planes at least 0.5x; with 2 workers at
least 1.6x the one-core figure, with the default placement and with the workers left to the
scheduler (the worker ratios are taken round by round too).
Each pass plays about ``--decisions`` decisions (a fifth of that for the passes with the
analysis planes, which are slower). Memory: the batch's arrays per game, and the Python heap
per game (``tracemalloc``: the batch built, reset and warmed up, divided by N; numpy arrays
included), at N = 1,024 in one process.

    python scripts/bench_vector.py [--decisions 30000] [--runs 3] [--warmup 30] [--seed 0]
                                   [--min-steps 120] [--peer-games 200] [--quick]
                                   [--write-docs [PATH]]

``--write-docs`` rewrites only this script's marked section of ``docs/benchmarks.md``
(appended at the end when the markers are absent). Run it alone on the machine: worker passes
need the cores to themselves.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import gc
import os
import random
import shlex
import statistics
import sys
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from time import perf_counter
from typing import Any

import bench_env
import benchkit
import numpy as np
from benchkit import ROOT

import mjenv
import mjenv.decompose
import mjenv.fans.calculator
import mjenv.shanten
from mjenv.encoders import ENCODERS, DefaultEncoder, SeatEncoder, register
from mjenv.vector import VectorMahjongEnv
from mjenv.vector.timing import MIN_STEPS, random_legal_actions, time_batch
from mjenv.vector.workers import pinned_cpus

DOCS = ROOT / "docs" / "benchmarks.md"
BEGIN = "<!-- bench_vector.py: begin (written by scripts/bench_vector.py --write-docs) -->"
END = "<!-- bench_vector.py: end -->"
SHANTEN = "mjenv-v1+shanten"
SIZES = (1, 64, 1024)
WORKERS = (0, 2)
PEER_LABELS = {"riichienv": "RiichiEnv (Rust), `encode()` 74×34 + `mask()`",
               "pymahjong": "pymahjong (C++), `get_obs` 93×34 + n-hot mask",
               "rlcard": "RLCard `mahjong`, 6×34×4 obs (steps)"}
TARGET_VECTOR = 1.0  # N = 1,024, one core, mjenv-v1, over RiichiEnv
TARGET_SHANTEN = 0.5  # the same with mjenv-v1+shanten
TARGET_WORKERS = 1.6  # 2 workers over 0 at N = 1,024, mjenv-v1
NULL = "bench-null"


class NullEncoder(SeatEncoder):
    """``mjenv-v1``'s shape with nothing written: a batch over it times everything a decision
    costs but the observation (the engine step, the seat view's catch-up, the mask, the batch's
    own work), so the passes over it split a decision's cost between the observation and the
    rest. Registered only while its passes run (:func:`null_encoder`), in this process only:
    they run without workers."""

    name = NULL
    shape = DefaultEncoder.shape
    dtype = DefaultEncoder.dtype

    @classmethod
    def channels(cls) -> list[tuple[str, str, str]]:
        return DefaultEncoder.channels()

    def encode(self, view: Any, mask: Any) -> np.ndarray:
        return np.zeros(self.shape, dtype=self.dtype)

    def encode_into(self, view: Any, mask: Any, out: Any) -> None:
        return None


@contextlib.contextmanager
def null_encoder() -> Iterator[None]:
    """:class:`NullEncoder` registered under :data:`NULL` for the block, and only for it (the
    registry is global: the env card lists every registered encoder)."""
    register(NullEncoder)
    try:
        yield
    finally:
        ENCODERS.pop(NULL, None)


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


def vector_loop(n: int, workers: int, encoder: str, warmup: int, min_steps: int,
                pin: bool | str = "auto", dtype: str = "float32",
                ) -> Callable[[int, int], tuple[int, float]]:
    """A batch pass (:func:`mjenv.vector.timing.time_batch`), over :class:`NullEncoder` for
    :data:`NULL`."""
    def run(decisions: int, seed: int) -> tuple[int, float]:
        with null_encoder() if encoder == NULL else contextlib.nullcontext():
            done = time_batch(n, decisions=decisions, min_steps=min_steps, warmup=warmup,
                              seed=seed, num_workers=workers, encoder=encoder,
                              pin_workers=pin, observation_dtype=dtype)
        return done.decisions, done.seconds

    return run


def peer_loop(name: str, module: Any, games: int) -> Callable[[int, int], tuple[int, float]]:
    """A peer's pass of ``games`` games (scripts/bench_env.py's loop for it)."""
    play = {"riichienv": bench_env.play_riichienv, "pymahjong": bench_env.play_pymahjong,
            "rlcard": bench_env.play_rlcard}[name]

    def run(decisions: int, seed: int) -> tuple[int, float]:
        done = play(module, games, seed)
        return int(done["decisions"]), done["seconds"]

    return run


def riichienv_in_turn(riichienv: Any, n: int, min_sweeps: int,
                      ) -> Callable[[int, int], tuple[int, float]]:
    """``n`` RiichiEnv tables stepped in turn, one step of each per sweep (as a batch of ``n``
    games is stepped), each player asked doing what :func:`bench_env.play_riichienv` does; a
    finished kyoku starts the next deal at once. Why: a batch visits every game once per
    step, so with a thousand games each one's state has left the CPU caches by its next turn;
    this pass shows what that costs a peer whose tables are played the same way."""

    def run(decisions: int, seed: int) -> tuple[int, float]:
        envs = [riichienv.RiichiEnv(skip_mjai_logging=True) for _ in range(n)]
        observations = [env.reset(seed=seed * n + i) for i, env in enumerate(envs)]
        deals = n
        randrange = random.Random(seed).randrange
        flatnonzero, frombuffer, f32, u8 = np.flatnonzero, np.frombuffer, np.float32, np.uint8
        made = sweeps = 0
        gc.collect()
        t0 = perf_counter()
        while made < decisions or sweeps < min_sweeps:
            sweeps += 1
            for i, env in enumerate(envs):
                actions = {}
                for pid, o in observations[i].items():
                    frombuffer(o.encode(), f32)
                    legal = flatnonzero(frombuffer(o.mask(), u8))
                    actions[pid] = o.find_action(int(legal[randrange(len(legal))]))
                made += len(actions)
                observations[i] = env.step(actions)
                if env.done():
                    observations[i] = env.reset(seed=seed * n + deals)
                    deals += 1
        return made, perf_counter() - t0

    return run


def peer_cases(peer_games: int, in_turn: Sequence[int], min_steps: int) -> list[Case]:
    """The installed peers' passes (RiichiEnv first: the acceptance reference; then RiichiEnv
    tables played in turn as a batch of each size in ``in_turn``)."""
    out = []
    for name, label in PEER_LABELS.items():
        module = bench_env.load_peer(name)
        if module is None:
            print(f"  {name} is not installed: skipped (pip install -e '.[bench]')",
                  file=sys.stderr)
            continue
        games = peer_games if name != "rlcard" else max(1, peer_games // 4)
        out.append(Case(name, label, "—", 0, "—", False, peer_loop(name, module, games)))
        if name == "riichienv":
            out += [Case(f"riichienv.{n}", f"RiichiEnv, {n:,} tables in turn", n, 0, "—",
                         False, riichienv_in_turn(module, n, min_steps)) for n in in_turn]
    return out


def cases(warmup: int, quick: bool, peer_games: int = 0, min_steps: int = 1) -> list[Case]:
    batches = [n for n in (SIZES if not quick else (1, 64)) if n > 1]
    out = peer_cases(peer_games, batches, min_steps) if peer_games else []
    out += [Case("raw", "`raw_env`", "—", 0, "mjenv-v1", False, raw_loop("mjenv-v1", False)),
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
                                vector_loop(n, w, encoder, warmup if n > 1 else 0,
                                            min_steps)))
        if not quick:  # the large batch's workers where the scheduler puts them
            out.append(Case(f"vec.{encoder}.1024.2f", "`VectorMahjongEnv`, `pin_workers=False`",
                            1024, 2, encoder, encoder == SHANTEN,
                            vector_loop(1024, 2, encoder, warmup, min_steps, pin=False)))
        big = 1024 if not quick else 64  # the counts instead of float32 (no target)
        out.append(Case(f"vec.{encoder}.{big}.0u8", "`VectorMahjongEnv`, "
                        "`observation_dtype=\"uint8\"` (the counts)", big, 0, encoder,
                        encoder == SHANTEN,
                        vector_loop(big, 0, encoder, warmup, min_steps, dtype="uint8")))
    out += [Case(f"vec.{NULL}.{n}.0", "`VectorMahjongEnv`, no observation written", n, 0, NULL,
                 False, vector_loop(n, 0, NULL, warmup, min_steps))
            for n in batches]
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
            batch = env.step(random_legal_actions(rng, batch.action_mask))
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


def ratio_text(r: Sequence[float], base: Sequence[float]) -> str:
    """The median and min–max of the round-by-round ratios r / base."""
    ratios = [a / b for a, b in zip(r, base, strict=True)]
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})"


def median_ratio(rates: dict[str, list[float]], key: str, base: str) -> float | None:
    if key not in rates or base not in rates:
        return None
    return statistics.median(a / b for a, b in zip(rates[key], rates[base], strict=True))


def acceptance(rates: dict[str, list[float]]) -> list[str]:
    """Issue 15's three batch checks and the like-for-like ratio, as lines (a figure missing
    from the run is said so)."""
    checks: list[tuple[str, str, str, float | None]] = [
              ("one core, N = 1,024, `mjenv-v1` / RiichiEnv", "vec.mjenv-v1.1024.0",
               "riichienv", TARGET_VECTOR),
              (f"one core, N = 1,024, `{SHANTEN}` / RiichiEnv", f"vec.{SHANTEN}.1024.0",
               "riichienv", TARGET_SHANTEN),
              ("2 workers (the default placement) / one core, N = 1,024, `mjenv-v1`",
               "vec.mjenv-v1.1024.2", "vec.mjenv-v1.1024.0", TARGET_WORKERS),
              ("2 workers left to the scheduler (`pin_workers=False`) / one core, N = 1,024, "
               "`mjenv-v1`", "vec.mjenv-v1.1024.2f", "vec.mjenv-v1.1024.0", TARGET_WORKERS),
              ("like for like (no target): one core, N = 1,024, `mjenv-v1` / 1,024 RiichiEnv "
               "tables in turn", "vec.mjenv-v1.1024.0", "riichienv.1024", None),
              ("like for like (no target): one core, N = 64, `mjenv-v1` / 64 RiichiEnv tables "
               "in turn", "vec.mjenv-v1.64.0", "riichienv.64", None),
              ("what a batch costs RiichiEnv itself (no target): 1,024 tables in turn / one "
               "table", "riichienv.1024", "riichienv", None),
              ("the counts instead of float32 (no target; not the acceptance's observation): "
               "one core, N = 1,024, `mjenv-v1`, `observation_dtype=\"uint8\"` / RiichiEnv",
               "vec.mjenv-v1.1024.0u8", "riichienv", None),
              (f"the same with `{SHANTEN}` (no target) / RiichiEnv", f"vec.{SHANTEN}.1024.0u8",
               "riichienv", None)]
    lines = []
    for label, key, base, target in checks:
        got = median_ratio(rates, key, base)
        if got is None:
            verdict = "not measured in this run"
        elif target is None:
            verdict = f"{got:.2f}"
        else:
            verdict = f"{got:.2f}, target {target:.1f}: {'met' if got >= target else 'NOT met'}"
        lines.append(f"- {label}: {verdict}")
    for n in (64, 1024):  # the observation's share of a decision (the passes without it)
        full, bare = rates.get(f"vec.mjenv-v1.{n}.0"), rates.get(f"vec.{NULL}.{n}.0")
        if full and bare:
            us = [1e6 / r for r in full]
            rest = [1e6 / r for r in bare]
            share = statistics.median(1 - b / a for a, b in zip(us, rest, strict=True))
            lines.append(
                f"- where a decision's time goes (no target), one core, N = {n:,}: "
                f"{statistics.median(us):.1f} µs with the `mjenv-v1` observation, "
                f"{statistics.median(rest):.1f} µs without it (engine, seat view, mask, "
                f"batch): the observation's share {share:.0%}")
    return lines


def render(todo: list[Case], rates: dict[str, list[float]],
           memory: list[tuple[str, int, float]]) -> str:
    peers = "riichienv" in rates
    lines = ["| System | N | Workers | Encoder | Decisions/s, median (min–max) | µs/decision "
             "| Ratio to `raw_env` `mjenv-v1` (median, min–max) |"
             + (" Ratio to RiichiEnv |" if peers else ""),
             "|---|---:|---:|---|---:|---:|---|" + ("---|" if peers else "")]
    for c in todo:
        r = rates[c.key]
        med = statistics.median(r)
        encoder = f"`{c.encoder}`" if c.encoder != "—" else "—"
        line = (f"| {c.label} | {c.n} | {c.workers} | {encoder} | {num(med)} "
                f"({num(min(r))}–{num(max(r))}) | {1e6 / med:.1f} | "
                f"{ratio_text(r, rates['raw'])} |")
        if peers:
            line += f" {ratio_text(r, rates['riichienv'])} |"
        lines.append(line)
    lines += ["", "Acceptance (issue 15), medians of the round-by-round ratios:", "",
              *acceptance(rates)]
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
        f"{args.warmup} untimed warm-up steps per batch, then at least {args.min_steps} timed "
        f"steps (a whole hand of every game, deals included); random masked actions "
        f"everywhere. "
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
        f"the gain is bounded by the cores actually free. {auto_placement()}",
        END,
    ])


def auto_placement() -> str:
    """How the default ``pin_workers="auto"`` placed 2 workers on this machine."""
    cpus = pinned_cpus("auto", 2)
    if cpus is None:
        return ("The default placement (`pin_workers=\"auto\"`) left the 2 workers to the "
                "scheduler here (their number is not a multiple of the CPUs').")
    return ("The default placement (`pin_workers=\"auto\"`) kept each of the 2 workers to "
            f"a CPU of its own here (CPUs {', '.join(map(str, cpus))}).")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--decisions", type=int, default=30_000, help="decisions per pass")
    p.add_argument("--runs", type=int, default=3, help="interleaved rounds")
    p.add_argument("--warmup", type=int, default=30, help="untimed steps per batch")
    p.add_argument("--min-steps", type=int, default=MIN_STEPS,
                   help="timed steps per batch at least (a whole hand of every game)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--peer-games", type=int, default=200,
                   help="games per pass of each installed peer (RLCard: a quarter; 0: none)")
    p.add_argument("--quick", action="store_true", help="N = 1 and 64 only (a smoke run)")
    p.add_argument("--write-docs", nargs="?", const=str(DOCS), metavar="PATH",
                   help=f"write the section into PATH (default {DOCS.relative_to(ROOT)})")
    args = p.parse_args(argv)
    if (args.decisions < 10 or args.runs < 1 or args.warmup < 0 or args.peer_games < 0
            or args.min_steps < 1):
        p.error("--decisions >= 10, --runs >= 1, --warmup >= 0, --peer-games >= 0, "
                "--min-steps >= 1")
    argv_used = list(sys.argv[1:] if argv is None else argv)
    todo = cases(args.warmup, args.quick, args.peer_games, args.min_steps)
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
