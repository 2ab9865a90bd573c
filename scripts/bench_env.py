#!/usr/bin/env python3
"""Benchmark the PettingZoo env: decisions per second of ``raw_env`` (observations, masks, random
masked agents) in the mcr and botzone profiles and of the wrapped ``env()``, side by side with
RLCard's mahjong and, where they are installed, pymahjong (C++) and riichienv (Rust), each with
its observations.

Acceptance (the env issue): ``raw_env`` decisions/s at least 5x RLCard's steps/s and at least
pymahjong's steps/s, in one run; and (issue 15) ``raw_env`` mcr at least 0.75x riichienv's
decisions/s in the same run (the goal is to pass it).

What is counted (units: per second of wall time, ``time.perf_counter``):

* **mjenv** (``raw_env`` / ``env``): the standard AEC loop, ``agent_iter`` / ``last`` / ``step``.
  ``last()`` builds the observation (the default encoder, ``mjenv-v1``, (86, 34) float32) and the
  235-entry int8 mask of the agent to act; the agent picks uniformly among the mask's ones
  (``np.flatnonzero`` and ``random.Random.randrange``). A *decision* is a step of a live agent
  (the ``None`` steps of terminated agents at the end of a hand are not counted); every step of
  a live agent is a real choice (the env never asks a seat that has only one option). A *hand*
  is one ``reset`` played to the end; the deal is timed.
* **RLCard** (``rlcard.make("mahjong")``, one ``RandomAgent`` a seat): a *step* is one
  ``env.step``, which also builds RLCard's 6x34x4 observation and legal-action dict; its agent
  draws with ``numpy.random.choice`` (as scripts/bench_engine.py).
* **pymahjong** (``MahjongEnv``, riichi, C++ core): a *step* is one ``step(pid, action)`` after
  ``get_obs(pid)`` (93x34 bool) and ``get_valid_actions(nhot=True)`` (54 bool); forced moves are
  skipped inside the env. Its ``reset(seed=...)`` fails in 1.1.2, so its deals come from its own
  shuffle (seeded through numpy's global generator).
* **riichienv** (``RiichiEnv(skip_mjai_logging=True)``, one kyoku, Rust core): a *decision* is
  one player's action in ``step({pid: action})``, after that player's ``encode()`` (74x34
  float32, wrapped with ``np.frombuffer``), ``mask()`` and ``find_action``.

Method (as scripts/bench_engine.py): a *round* plays every system in turn, each on the same
deals in every round (fixed seeds), with ``gc.collect()`` before each pass; ratios are taken
round by round; the report gives medians and min-max over the rounds. A peer that is not
installed is reported and skipped; RLCard is the acceptance reference, so without it
``--write-docs`` is refused.

    python scripts/bench_env.py [--hands 400] [--rlcard-games 100] [--peer-games 400]
                                [--runs 5] [--seed 0] [--pure] [--write-docs [PATH]]

``--pure`` adds a pass of ``raw_env`` mcr with the plain-Python sources (what an install without a
C compiler, or with ``MJENV_PURE_PYTHON=1``, runs): each round runs it in a subprocess that
imports a copy of the package without its compiled modules, on the same deals.

``--write-docs`` rewrites only this script's marked section of ``docs/benchmarks.md`` (appended
at the end when the markers are absent).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib
import json
import os
import platform
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from time import perf_counter
from types import ModuleType
from typing import Any

import bench_engine
import benchkit
import numpy as np
from benchkit import ROOT

import mjenv

DOCS = ROOT / "docs" / "benchmarks.md"
BEGIN = "<!-- bench_env.py: begin (written by scripts/bench_env.py --write-docs) -->"
END = "<!-- bench_env.py: end -->"

ACCEPT_HANDS = 400  # acceptance sizes; smaller runs are marked as smoke runs
ACCEPT_GAMES = 100
ACCEPT_PEER_GAMES = 400
ACCEPT_RUNS = 5
TARGET_RLCARD = 5.0  # raw_env decisions/s over RLCard's steps/s
TARGET_PYMAHJONG = 1.0  # raw_env decisions/s over pymahjong's steps/s
TARGET_RIICHIENV = 0.75  # raw_env decisions/s over riichienv's (issue 15; the goal is 1)
ENV_MODULES = ("mjenv.engine.game", "mjenv.engine.legal", "mjenv.engine.events",
               "mjenv.engine.seat_view", "mjenv.encoders.default", "mjenv.decompose",
               "mjenv.fans.calculator")
"""The modules of a decision that setup.py compiles: the build line names how they loaded."""

PEERS = ("rlcard", "pymahjong", "riichienv")
Pass = dict[str, float]  # one timed pass: games, decisions (steps for RLCard/pymahjong), seconds

# ---------------------------------------------------------------- timed passes


def play_mjenv(factory: Callable[..., Any], rules: str, hands: int, seed: int) -> Pass:
    """``hands`` hands of the AEC loop with a random masked agent; hand h is ``reset(seed=
    seed + h)`` (the wall, dealer and prevalent wind all come from it)."""
    env = factory(rules=rules)
    randrange = random.Random(seed).randrange
    flatnonzero = np.flatnonzero
    decisions = 0
    gc.collect()
    t0 = perf_counter()
    for h in range(hands):
        env.reset(seed=seed + h)
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = flatnonzero(obs["action_mask"])
            env.step(int(legal[randrange(len(legal))]))
            decisions += 1
    seconds = perf_counter() - t0
    env.close()
    return {"games": hands, "decisions": decisions, "seconds": seconds}


def play_pure(copy: str, rules: str, hands: int, seed: int) -> Pass:
    """:func:`play_mjenv` of ``raw_env`` in a subprocess importing the plain-Python copy of the
    package in ``copy`` (``--emit-pass``; its start and imports are not timed)."""
    cmd = [sys.executable, __file__, "--emit-pass", rules, "--hands", str(hands),
           "--seed", str(seed)]
    done = subprocess.run(cmd, env={**os.environ, "PYTHONPATH": copy}, capture_output=True,
                          text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"the plain-Python pass failed:\n{done.stderr}")
    out = json.loads(done.stdout.splitlines()[-1])
    if not all(f.startswith(copy) and f.endswith(".py") for f in out["files"].values()):
        raise RuntimeError(f"the plain-Python pass imported {out['files']}, not the copy")
    result: Pass = out["pass"]
    return result


def play_rlcard(rlcard: ModuleType, games: int, seed: int) -> Pass:
    """RLCard's env with its random agents (scripts/bench_engine.py); its steps are the unit."""
    p = bench_engine.play_rlcard_env(rlcard, games, seed)
    return {"games": p["games"], "decisions": p["steps"], "seconds": p["seconds"]}


def play_pymahjong(pymahjong: ModuleType, games: int, seed: int) -> Pass:
    """pymahjong's ``MahjongEnv``: observation and n-hot mask of the player to act, a random
    valid action; one kyoku a game."""
    env = pymahjong.MahjongEnv()
    np.random.seed(seed)  # its shuffle; reset(seed=...) is broken in 1.1.2
    randrange = random.Random(seed).randrange
    flatnonzero = np.flatnonzero
    steps = 0
    gc.collect()
    t0 = perf_counter()
    for _ in range(games):
        env.reset()
        while not env.is_over():
            pid = env.get_curr_player_id()
            env.get_obs(pid)
            legal = flatnonzero(env.get_valid_actions(nhot=True))
            env.step(pid, int(legal[randrange(len(legal))]))
            steps += 1
    seconds = perf_counter() - t0
    return {"games": games, "decisions": steps, "seconds": seconds}


def play_riichienv(riichienv: ModuleType, games: int, seed: int) -> Pass:
    """riichienv's ``RiichiEnv`` (one kyoku, no MJAI log): every player asked encodes its
    observation and mask and picks a random legal action."""
    env = riichienv.RiichiEnv(skip_mjai_logging=True)
    randrange = random.Random(seed).randrange
    flatnonzero, frombuffer, f32, u8 = np.flatnonzero, np.frombuffer, np.float32, np.uint8
    decisions = 0
    gc.collect()
    t0 = perf_counter()
    for g in range(games):
        observations = env.reset(seed=seed + g)
        while not env.done():
            actions = {}
            for pid, o in observations.items():
                frombuffer(o.encode(), f32)
                legal = flatnonzero(frombuffer(o.mask(), u8))
                actions[pid] = o.find_action(int(legal[randrange(len(legal))]))
            decisions += len(actions)
            observations = env.step(actions)
    seconds = perf_counter() - t0
    return {"games": games, "decisions": decisions, "seconds": seconds}


def build() -> str:
    """Which build of :data:`ENV_MODULES` this process imported: pure Python, compiled (mypyc)
    or mixed, and any compiled module older than its source (it would measure old code)."""
    files = {m: importlib.import_module(m).__file__ or "?" for m in ENV_MODULES}
    stale = benchkit.stale_modules(files)
    names = ", ".join(f"`{Path(f).name}`" for f in files.values())
    warn = f" — **STALE, older than the source: {', '.join(stale)}**" if stale else ""
    return f"{benchkit.build_of(files)} ({names}){warn}"


def load_peer(name: str) -> ModuleType | None:
    """A peer's module, or None when it is not installed (or does not import)."""
    try:
        return importlib.import_module(name)
    except Exception:  # an optional peer: a broken install counts as missing
        return None


def peer_version(name: str, module: ModuleType) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return str(getattr(module, "__version__", "unknown"))


def run_rounds(hands: int, games: int, peer_games: int, runs: int, seed: int,
               peers: dict[str, ModuleType], pure: str | None = None) -> dict[str, list[Pass]]:
    """Every pass of every round, by name; a peer's pass only when it is installed, the
    plain-Python one only with ``pure`` (the folder of the copy)."""
    passes: list[tuple[str, Callable[[], Pass]]] = []
    if "rlcard" in peers:
        passes.append(("rlcard", lambda: play_rlcard(peers["rlcard"], games, seed)))
    passes.append(("raw.mcr", lambda: play_mjenv(mjenv.raw_env, "mcr", hands, seed)))
    if pure is not None:
        passes.append(("raw.mcr.pure", lambda: play_pure(pure, "mcr", hands, seed)))
    if "pymahjong" in peers:
        passes.append(("pymahjong",
                       lambda: play_pymahjong(peers["pymahjong"], peer_games, seed)))
    passes.append(("raw.botzone", lambda: play_mjenv(mjenv.raw_env, "botzone", hands, seed)))
    if "riichienv" in peers:
        passes.append(("riichienv",
                       lambda: play_riichienv(peers["riichienv"], peer_games, seed)))
    passes.append(("env.mcr", lambda: play_mjenv(mjenv.env, "mcr", hands, seed)))
    out: dict[str, list[Pass]] = {name: [] for name, _ in passes}
    for r in range(runs):
        t0 = perf_counter()
        for name, timed in passes:
            out[name].append(timed())
        print(f"  round {r + 1}/{runs}: {perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return out


# ---------------------------------------------------------------- report

SYSTEMS = {
    "raw.mcr": ("mjenv `raw_env(rules=\"mcr\")`, `mjenv-v1` obs + mask", "decisions"),
    "raw.mcr.pure": ("mjenv `raw_env(rules=\"mcr\")`, `mjenv-v1` obs + mask, plain Python "
                     "(no compiled module)", "decisions"),
    "raw.botzone": ("mjenv `raw_env(rules=\"botzone\")`, `mjenv-v1` obs + mask", "decisions"),
    "env.mcr": ("mjenv `env(rules=\"mcr\")` (wrapped), `mjenv-v1` obs + mask", "decisions"),
    "rlcard": ("RLCard `mahjong` env, `RandomAgent`s, 6×34×4 obs", "steps"),
    "pymahjong": ("pymahjong `MahjongEnv` (C++), `get_obs` 93×34 + n-hot mask", "steps"),
    "riichienv": ("riichienv `RiichiEnv` (Rust), `encode()` 74×34 f32 + `mask()`", "decisions"),
}
OURS = ("raw.mcr", "raw.mcr.pure", "raw.botzone", "env.mcr")
REFS = (("rlcard", TARGET_RLCARD), ("pymahjong", TARGET_PYMAHJONG),
        ("riichienv", TARGET_RIICHIENV))


def render(res: dict[str, list[Pass]], versions: dict[str, str], missing: list[str]) -> str:
    """The tables, as Markdown."""
    lines = ["| System | Unit | Per second | Hands (games)/s | Units/hand | µs/unit |",
             "|---|---|---:|---:|---:|---:|"]
    for name in (*OURS, "rlcard", "pymahjong", "riichienv"):
        if name not in res:
            continue
        p = res[name]
        label, unit = SYSTEMS[name]
        per_s = bench_engine.rates(p, "decisions")
        lines.append("| " + " | ".join([
            label, unit, bench_engine.median_range(per_s),
            bench_engine.median_range(bench_engine.rates(p, "games")),
            f"{p[0]['decisions'] / p[0]['games']:.1f}",
            f"{1e6 / statistics.median(per_s):.1f}"]) + " |")
    lines.append("")
    if missing:
        lines += [f"Not installed, skipped: {', '.join(missing)} (`pip install -e '.[bench]'`).",
                  ""]
    refs = [(ref, target) for ref, target in REFS if ref in res]
    if not refs:
        return "\n".join(lines) + "\n"
    lines += ["Ratios, our decisions/s over the peer's units/s (median of the per-round ratios, "
              "min–max):", "",
              "| mjenv | Peer | Ratio | Target | Result |", "|---|---|---:|---|---|"]
    for name in (n for n in OURS if n in res):
        for ref, target in refs:
            per_round = [a / b for a, b in zip(bench_engine.rates(res[name], "decisions"),
                                               bench_engine.rates(res[ref], "decisions"),
                                               strict=True)]
            med = statistics.median(per_round)
            tgt = result = "—"
            # the targets are on raw_env (riichienv's on mcr, compiled); the others are reported
            if name in ("raw.mcr", "raw.botzone") and (ref != "riichienv" or name == "raw.mcr"):
                tgt, result = f"≥ {target:g}×", "pass" if med >= target else "**FAIL**"
                if ref == "riichienv":
                    tgt += " (goal ≥ 1×)"
                    result += ", passed it" if med >= 1 else ""
            lines.append("| " + " | ".join([
                f"`{name}`", f"{ref} {versions[ref]}",
                bench_engine.median_range(per_round, benchkit.ratio), tgt, result]) + " |")
    return "\n".join(lines) + "\n"


def section(argv: list[str], body: str, note: str, versions: dict[str, str]) -> str:
    """This script's section of docs/benchmarks.md, markers included."""
    cmd = shlex.join(["python", "scripts/bench_env.py", *argv])
    try:
        cpu = next(line.split(":", 1)[1].strip()
                   for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        cpu = "unknown CPU"
    peers = ", ".join(f"{k} {v}" for k, v in versions.items())
    return f"""{BEGIN}
# Benchmark: the env (`raw_env`, `env`) against RLCard, pymahjong and riichienv

Written by `scripts/bench_env.py --write-docs` (this section only; do not edit by hand).
Command:

    {cmd}

Date: {datetime.date.today().isoformat()}. Machine: {os.cpu_count()} cores, {cpu};
{platform.platform()}; Python {platform.python_version()}, numpy {version("numpy")},
pettingzoo {version("pettingzoo")}; {peers}; mjenv {mjenv.__version__}
({benchkit.source_revision()}). Build measured: {build()}.

Acceptance (env issue): decisions per second of `raw_env` with observations, masks and random
masked agents at least 5× RLCard's steps per second and at least pymahjong's, in the same run;
and (issue 15) `raw_env` mcr at least 0.75× riichienv's decisions per second in the same run,
the goal being to pass it.

{note}{body}
## What is compared

* **mjenv.** The standard AEC loop (`agent_iter`, `last`, `step`) on `raw_env(rules=…)` and on
  the wrapped `env(rules="mcr")`: `last()` builds the `mjenv-v1` observation ((86, 34) float32)
  and the 235-entry int8 action mask for the agent to act, and the agent picks uniformly among
  the mask's ones (`np.flatnonzero`, `random.Random`). A *decision* is a step of a live agent
  (a terminated agent's `None` step at the end of a hand is not one); the env never selects a
  seat that has a single option, so every decision is a real choice, claim windows included
  (each seat that may claim answers with its own decision). `reset(seed=h)` is timed (the deal).
  Every step runs the full rules (claim priorities, the fan calculator against the 8-point
  minimum), and the observation is built from the seat's own view of the events.
* **Plain Python** (`--pure`). The same `raw_env` mcr pass with none of the modules that
  setup.py compiles: what an install without a C compiler (or with `MJENV_PURE_PYTHON=1`) runs.
  It runs in a subprocess importing a copy of the package's `.py` files; only its loop is timed.
* **RLCard.** `rlcard.make("mahjong")` with one `RandomAgent` a seat; a *step* is one
  `env.step` (which encodes its 6×34×4 observation and legal-action dict); its agent draws with
  `numpy.random.choice`. A smaller game: 136 tiles, no flowers, no fans or minimum, one
  claimant per discard (scripts/bench_engine.py's section describes it).
* **pymahjong.** Riichi mahjong, C++ core: per step `get_curr_player_id`, `get_obs` (93×34
  bool), `get_valid_actions(nhot=True)` (54 bool), a random valid action, `step`; one kyoku a
  game; single-option moves are played inside the env. Its `reset(seed=…)` fails in 1.1.2, so
  deals come from its own shuffle (numpy's global generator, seeded).
* **riichienv.** Riichi mahjong, Rust core: `RiichiEnv(skip_mjai_logging=True)`, one kyoku a
  game; every player asked gets `encode()` (74×34 float32 bytes, viewed with `np.frombuffer`),
  `mask()`, a random legal index and `find_action`; a *decision* is one player's action in
  `step({{pid: action}})`.
* **Method.** One process (and, with `--pure`, the plain-Python pass's subprocess). A round
  runs RLCard, `raw_env` mcr, the plain-Python `raw_env` mcr (with `--pure`), pymahjong,
  `raw_env` botzone, riichienv and the wrapped `env` in turn, each on the same deals in every
  round (fixed seeds; pymahjong's seeded shuffle); the garbage collector stays on and
  `gc.collect()` runs before each pass. Ratios are taken round by round, so drift of this
  shared, noisy machine hits both sides alike; tables give the median and min–max over the
  rounds (`time.perf_counter`).
{END}
"""


def write_section(path: Path, text: str) -> None:
    """Replace this script's marked section of ``path`` with ``text`` (or append it)."""
    benchkit.write_marked_section(path, text, BEGIN, END)


# ---------------------------------------------------------------- command line


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--hands", type=int, default=ACCEPT_HANDS,
                   help="mjenv hands per pass (each of raw mcr, raw botzone, wrapped mcr)")
    p.add_argument("--rlcard-games", type=int, default=ACCEPT_GAMES,
                   help="RLCard games per pass")
    p.add_argument("--peer-games", type=int, default=ACCEPT_PEER_GAMES,
                   help="pymahjong and riichienv kyoku per pass")
    p.add_argument("--runs", type=int, default=ACCEPT_RUNS, help="interleaved rounds")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and the choices")
    p.add_argument("--pure", action="store_true",
                   help="also time raw_env mcr with the plain-Python sources")
    p.add_argument("--write-docs", nargs="?", const=str(DOCS), metavar="PATH",
                   help="rewrite this script's section of PATH "
                        f"(default {DOCS.relative_to(ROOT)})")
    p.add_argument("--emit-pass", metavar="RULES", help=argparse.SUPPRESS)  # see play_pure
    args = p.parse_args(argv)
    if args.emit_pass:
        files = {m: importlib.import_module(m).__file__ or "?" for m in ENV_MODULES}
        result = play_mjenv(mjenv.raw_env, args.emit_pass, args.hands, args.seed)
        print(json.dumps({"pass": result, "files": files}))
        return 0
    if min(args.hands, args.rlcard_games, args.peer_games, args.runs) < 1:
        p.error("--hands, --rlcard-games, --peer-games and --runs must be positive")
    argv_used = list(sys.argv[1:] if argv is None else argv)

    peers: dict[str, ModuleType] = {}
    missing: list[str] = []
    for name in PEERS:
        module = load_peer(name)
        if module is None:
            missing.append(name)
        else:
            peers[name] = module
    versions = {name: peer_version(name, m) for name, m in peers.items()}
    if missing:
        print(f"NOT installed (pip install -e '.[bench]'), skipped: {', '.join(missing)}",
              file=sys.stderr)
    if "rlcard" not in peers and args.write_docs:
        p.error("--write-docs needs RLCard: it is the acceptance reference")
    print(f"mjenv build: {build()}", file=sys.stderr)

    with tempfile.TemporaryDirectory() as copy:
        if args.pure:
            benchkit.copy_pure_package(copy)
        res = run_rounds(args.hands, args.rlcard_games, args.peer_games, args.runs, args.seed,
                         peers, copy if args.pure else None)
    smoke = (args.hands < ACCEPT_HANDS or args.rlcard_games < ACCEPT_GAMES
             or args.peer_games < ACCEPT_PEER_GAMES or args.runs < ACCEPT_RUNS)
    note = (f"**Smoke run, not an acceptance measurement** (acceptance needs --hands ≥ "
            f"{ACCEPT_HANDS}, --rlcard-games ≥ {ACCEPT_GAMES}, --peer-games ≥ "
            f"{ACCEPT_PEER_GAMES} and --runs ≥ {ACCEPT_RUNS}).\n\n" if smoke else "")
    body = (f"{args.hands:,} mjenv hands per pass, {args.rlcard_games} RLCard games and "
            f"{args.peer_games} pymahjong / riichienv kyoku per pass, {args.runs} interleaved "
            f"rounds, seed {args.seed}; rates per second of wall time, median (min–max) over "
            f"the rounds.\n\n" + render(res, versions, missing))
    print(f"\nmjenv env vs peers, random masked agents\n\n{note}{body}")
    if args.write_docs:
        path = Path(args.write_docs)
        write_section(path, section(argv_used, body, note, versions))
        print(f"wrote the bench_env.py section of {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
