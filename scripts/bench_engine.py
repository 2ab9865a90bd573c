#!/usr/bin/env python3
"""Benchmark the engine: random legal play (hands/s, decisions/s, steps/s) in the mcr and botzone
profiles, side by side with RLCard's mahjong played by its random agents (its steps/s).

Acceptance (the engine issue): decisions/s at least 10x RLCard's steps/s, in one run.

What is counted. Ours: a *step* is one ``Game.step`` call (one seat's action; in a claim window
every seat asked answers with its own step); a *decision* is a step where that seat had more
than one legal action. Forced moves (draws, flower and kong replacements, a seat whose only
option would be Pass) are done by the engine inside a step and are not steps. RLCard: a step is
one ``env.step`` call: a discard (its legal actions are the distinct kinds in hand) or the
answer of the one seat offered a pong/kong/chow (the claim, or "stand"). RLCard too draws
inside a step, and it has no win action (``is_over()`` declares a win by itself when a hand has
four sets and a pair), so almost every RLCard step is a choice; the report counts RLCard's
steps with more than one legal action as well. RLCard's mahjong is a smaller game (136 tiles,
no flowers, no fan calculation or minimum, no robbing or self-drawn win decision), and its
``env.step`` also builds a numpy observation, which our ``Game.step`` does not: the ratio is
the acceptance measure, not a like-for-like comparison. For reference the report adds RLCard's
``Game`` played directly (no observation, no agent, ``random.Random`` choices).

Method (as scripts/benchkit.py): a *round* plays, in turn, RLCard's env, our mcr profile,
RLCard's game, our botzone profile, each on the same deals in every round (fixed seeds), with
``gc.collect()`` before each pass; ratios are taken round by round; the report gives medians
and min-max over the rounds.

    python scripts/bench_engine.py [--hands 2000] [--rlcard-games 200] [--runs 5] [--seed 0]
                                   [--write-docs [PATH]]

``--write-docs`` rewrites only this script's marked section of ``docs/benchmarks.md``
(appended at the end when the markers are absent). Needs RLCard (extra ``bench``); without it
the script measures and prints ours only, and ``--write-docs`` is refused.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib
import os
import platform
import random
import shlex
import statistics
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from time import perf_counter
from types import ModuleType

import benchkit
from benchkit import ROOT

import mjenv
from mjenv import decompose
from mjenv.engine import BOTZONE, MCR, Game, RuleConfig
from mjenv.fans import calculator

DOCS = ROOT / "docs" / "benchmarks.md"
BEGIN = "<!-- bench_engine.py: begin (written by scripts/bench_engine.py --write-docs) -->"
END = "<!-- bench_engine.py: end -->"

ACCEPT_HANDS = 2_000  # acceptance sizes; smaller runs are marked as smoke runs
ACCEPT_GAMES = 200
ACCEPT_RUNS = 5
TARGET = 10.0  # our decisions/s over RLCard's env steps/s

PROFILES: dict[str, RuleConfig] = {"mcr": MCR, "botzone": BOTZONE}

Pass = dict[str, float]  # one timed pass: games, steps, decisions, seconds

# ---------------------------------------------------------------- timed passes


def play_mjenv(rules: RuleConfig, hands: int, seed: int) -> Pass:
    """``hands`` hands of uniformly random legal play; hand h has seed ``seed + h``, the dealer
    rotates (unless the profile fixes it) and the prevalent wind every four hands."""
    deals = [(seed + h, rules.fixed_dealer if rules.fixed_dealer is not None else h % 4,
              (h // 4) % 4) for h in range(hands)]
    randrange = random.Random(seed).randrange
    steps = decisions = 0
    gc.collect()
    t0 = perf_counter()
    for s, dealer, wind in deals:
        g = Game(rules, seed=s, dealer=dealer, prevalent_wind=wind)
        while not g.is_over:
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            n = len(legal)
            if n > 1:
                decisions += 1
            g.step(seat, legal[randrange(n)])
            steps += 1
    seconds = perf_counter() - t0
    return {"games": hands, "steps": steps, "decisions": decisions, "seconds": seconds}


def load_rlcard() -> ModuleType | None:
    """RLCard, or None when it is not installed."""
    try:
        return importlib.import_module("rlcard")
    except ImportError:
        return None


def play_rlcard_env(rlcard: ModuleType, games: int, seed: int) -> Pass:
    """RLCard's documented loop: ``rlcard.make("mahjong")`` and one ``RandomAgent`` a seat."""
    import numpy as np

    agents_mod = importlib.import_module("rlcard.agents")
    env = rlcard.make("mahjong", config={"seed": seed})
    agents = [agents_mod.RandomAgent(num_actions=env.num_actions)
              for _ in range(env.num_players)]
    np.random.seed(seed)  # RandomAgent draws from numpy's global generator
    steps = decisions = 0
    gc.collect()
    t0 = perf_counter()
    for _ in range(games):
        state, player = env.reset()
        while not env.is_over():
            if len(state["legal_actions"]) > 1:
                decisions += 1
            state, player = env.step(agents[player].step(state))
            steps += 1
    seconds = perf_counter() - t0
    return {"games": games, "steps": steps, "decisions": decisions, "seconds": seconds}


def play_rlcard_game(rlcard: ModuleType, games: int, seed: int) -> Pass:
    """RLCard's ``Game`` without the env: no observation, no agent; a random legal action
    (a discard is a random tile of the hand, so kinds are weighted by the copies held)."""
    import numpy as np

    game = importlib.import_module("rlcard.games.mahjong").Game()
    game.np_random = np.random.RandomState(seed)
    randrange = random.Random(seed).randrange
    steps = 0
    gc.collect()
    t0 = perf_counter()
    for _ in range(games):
        state, _player = game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions(state)
            state, _player = game.step(legal[randrange(len(legal))])
            steps += 1
    seconds = perf_counter() - t0
    return {"games": games, "steps": steps, "decisions": float("nan"), "seconds": seconds}


def run_rounds(hands: int, games: int, runs: int, seed: int,
               rlcard: ModuleType | None) -> dict[str, list[Pass]]:
    """Every pass of every round, by name; RLCard's passes only when it is installed."""
    passes: list[tuple[str, Callable[[], Pass]]] = []
    if rlcard is not None:
        passes.append(("rlcard.env", lambda: play_rlcard_env(rlcard, games, seed)))
    passes.append(("mcr", lambda: play_mjenv(MCR, hands, seed)))
    if rlcard is not None:
        passes.append(("rlcard.game", lambda: play_rlcard_game(rlcard, games, seed)))
    passes.append(("botzone", lambda: play_mjenv(BOTZONE, hands, seed)))
    out: dict[str, list[Pass]] = {name: [] for name, _ in passes}
    for r in range(runs):
        t0 = perf_counter()
        for name, timed in passes:
            out[name].append(timed())
        print(f"  round {r + 1}/{runs}: {perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return out


# ---------------------------------------------------------------- report


def rates(passes: list[Pass], what: str) -> list[float]:
    return [p[what] / p["seconds"] for p in passes]


def median_range(xs: list[float], fmt: Callable[[float], str] = benchkit.num) -> str:
    return f"{fmt(statistics.median(xs))} ({fmt(min(xs))}–{fmt(max(xs))})"


def per_game(passes: list[Pass], what: str) -> str:
    return f"{passes[0][what] / passes[0]['games']:.1f}"  # the same deals every round


SYSTEMS = {
    "rlcard.env": "RLCard `mahjong` env, `RandomAgent`s (the acceptance reference)",
    "rlcard.game": "RLCard mahjong `Game` alone (no observation, no agent)",
    "mcr": "mjenv `Game`, mcr profile (144 tiles, flowers)",
    "botzone": "mjenv `Game`, botzone profile (136 tiles, per-seat walls)",
}


def render(res: dict[str, list[Pass]], rlcard_version: str | None) -> str:
    """The tables, as Markdown."""
    lines = ["| System | Hands/s | Steps/s | Decisions/s | Steps/hand | Decisions/hand |",
             "|---|---:|---:|---:|---:|---:|"]
    for name in ("rlcard.env", "rlcard.game", "mcr", "botzone"):
        if name not in res:
            continue
        p = res[name]
        has_decisions = name != "rlcard.game"
        lines.append("| " + " | ".join([
            SYSTEMS[name], median_range(rates(p, "games")), median_range(rates(p, "steps")),
            median_range(rates(p, "decisions")) if has_decisions else "—",
            per_game(p, "steps"), per_game(p, "decisions") if has_decisions else "—"]) + " |")
    lines.append("")
    if "rlcard.env" not in res:
        lines.append("RLCard is not installed (`pip install -e '.[bench]'`): no comparison.")
        return "\n".join(lines) + "\n"
    lines += [f"Ratios to RLCard {rlcard_version} (median of the per-round ratios, min–max):",
              "",
              "| Profile | Decisions/s ÷ RLCard env steps/s | Target | Result "
              "| Steps/s ÷ RLCard env steps/s | Steps/s ÷ RLCard `Game` steps/s |",
              "|---|---:|---|---|---:|---:|"]
    ref_env = rates(res["rlcard.env"], "steps")
    ref_game = rates(res["rlcard.game"], "steps")
    for name in ("mcr", "botzone"):
        dec = [a / b for a, b in zip(rates(res[name], "decisions"), ref_env, strict=True)]
        stp = [a / b for a, b in zip(rates(res[name], "steps"), ref_env, strict=True)]
        stg = [a / b for a, b in zip(rates(res[name], "steps"), ref_game, strict=True)]
        result = "pass" if statistics.median(dec) >= TARGET else "**FAIL**"
        lines.append("| " + " | ".join([
            name, median_range(dec, benchkit.ratio), f"≥ {TARGET:g}×", result,
            median_range(stp, benchkit.ratio), median_range(stg, benchkit.ratio)]) + " |")
    return "\n".join(lines) + "\n"


def build() -> str:
    """Which build of the compiled-at-install modules the engine imported."""
    files = {"decompose": decompose.__file__ or "?", "calculator": calculator.__file__ or "?"}
    stale = benchkit.stale_modules(files)
    names = ", ".join(f"`{Path(f).name}`" for f in files.values())
    warn = f" — **STALE, older than the source: {', '.join(stale)}**" if stale else ""
    return f"{benchkit.build_of(files)} ({names}){warn}"


def section(argv: list[str], body: str, note: str, rlcard_version: str) -> str:
    """This script's section of docs/benchmarks.md, markers included."""
    cmd = shlex.join(["python", "scripts/bench_engine.py", *argv])
    try:
        cpu = next(line.split(":", 1)[1].strip()
                   for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        cpu = "unknown CPU"
    return f"""{BEGIN}
# Benchmark: the engine against RLCard's mahjong

Written by `scripts/bench_engine.py --write-docs` (this section only; do not edit by hand).
Command:

    {cmd}

Date: {datetime.date.today().isoformat()}. Machine: {os.cpu_count()} cores, {cpu};
{platform.platform()}; Python {platform.python_version()}, numpy {version("numpy")},
RLCard {rlcard_version}, mjenv {mjenv.__version__} ({benchkit.source_revision()}).
Build measured: {build()}.

Acceptance (engine issue): random legal play, our decisions per second at least 10× RLCard's
steps per second (RLCard's mahjong env with its random agents), measured in the same run.

{note}{body}
## What is compared

* **Ours.** `Game(rules, seed=…)` played to the end by a uniformly random legal choice
  (`random.Random`) for the first seat of `to_act()`; the deal (wall shuffle, 13 tiles each,
  flower replacement) is timed. A *step* is one `Game.step` call: one seat's action; in a claim
  window each seat asked answers with its own step. A *decision* is a step where that seat had
  more than one legal action. Forced moves are not steps: the engine draws, replaces flowers
  and kong tiles, and does not ask a seat whose only option would be Pass. Every step runs the
  full rules: legal actions with claim windows and priorities, wins scored with the fan
  calculator against the 8-point minimum. No observation tensor is built (that is the RL
  env's work, not measured here).
* **RLCard (`rlcard.make("mahjong")`, `RandomAgent` per seat).** A step is one `env.step`
  call, by the one player to act: a discard (legal actions: the distinct tile kinds in hand)
  or, when its judger finds a pong/kong (first) or chow for one player, that player's claim or
  `stand`. Draws happen inside a step and wins are not actions (`is_over()` ends the game as
  soon as a hand has four sets and a pair), so nearly every RLCard step is a choice: the
  Decisions column counts its steps with more than one legal action. Each `env.step` also
  encodes a 6×34×4 numpy observation and the legal-action dict, and the agent draws with
  `numpy.random.choice`. RLCard's game is smaller: 136 tiles, no flowers, no fans or minimum,
  one claimant per discard, no robbing a kong. The ratio is therefore the issue's measure,
  not a like-for-like comparison.
* **RLCard `Game` alone.** The same game stepped directly (`init_game`, `get_legal_actions`,
  `step`, `is_over`) with `random.Random` choices: no observation, no agent. Most of RLCard's
  cost is in its game (`is_over()` re-judges all four hands after every step), so this is the
  stricter reference; it is listed for the record, not as the acceptance reference.
* **Method.** One process. A round plays RLCard's env, our mcr profile, RLCard's `Game`, our
  botzone profile in turn, each on the same deals in every round (fixed seeds); the garbage
  collector stays on and `gc.collect()` runs before each pass. Ratios are taken round by
  round, so drift of this shared, noisy machine hits both sides alike; tables give the median
  and min–max over the rounds (`time.perf_counter`).
{END}
"""


def write_section(path: Path, text: str) -> None:
    """Replace this script's marked section of ``path`` with ``text`` (or append it)."""
    benchkit.write_marked_section(path, text, BEGIN, END)


# ---------------------------------------------------------------- command line


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--hands", type=int, default=ACCEPT_HANDS,
                   help="our hands per profile per round")
    p.add_argument("--rlcard-games", type=int, default=ACCEPT_GAMES,
                   help="RLCard games per pass per round")
    p.add_argument("--runs", type=int, default=ACCEPT_RUNS, help="interleaved rounds")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and the choices")
    p.add_argument("--write-docs", nargs="?", const=str(DOCS), metavar="PATH",
                   help="rewrite this script's section of PATH "
                        f"(default {DOCS.relative_to(ROOT)})")
    args = p.parse_args(argv)
    if args.hands < 1 or args.rlcard_games < 1 or args.runs < 1:
        p.error("--hands, --rlcard-games and --runs must be positive")
    argv_used = list(sys.argv[1:] if argv is None else argv)

    rlcard = load_rlcard()
    rlcard_version: str | None = None
    if rlcard is None:
        print("RLCard is NOT installed (pip install -e '.[bench]'): measuring mjenv only, "
              "no comparison.", file=sys.stderr)
        if args.write_docs:
            p.error("--write-docs needs RLCard: the section is a comparison with it")
    else:
        try:
            rlcard_version = version("rlcard")
        except PackageNotFoundError:
            rlcard_version = getattr(rlcard, "__version__", "unknown")
    print(f"mjenv build: {build()}", file=sys.stderr)

    res = run_rounds(args.hands, args.rlcard_games, args.runs, args.seed, rlcard)
    smoke = (args.hands < ACCEPT_HANDS or args.rlcard_games < ACCEPT_GAMES
             or args.runs < ACCEPT_RUNS)
    note = (f"**Smoke run, not an acceptance measurement** (acceptance needs --hands ≥ "
            f"{ACCEPT_HANDS:,}, --rlcard-games ≥ {ACCEPT_GAMES} and --runs ≥ "
            f"{ACCEPT_RUNS}).\n\n" if smoke else "")
    body = (f"{args.hands:,} hands per profile and {args.rlcard_games} RLCard games per pass, "
            f"{args.runs} interleaved rounds, seed {args.seed}; rates are the median "
            f"(min–max) over the rounds.\n\n" + render(res, rlcard_version))
    print(f"\nmjenv engine vs RLCard mahjong, random legal play\n\n{note}{body}")
    if args.write_docs:
        assert rlcard_version is not None
        path = Path(args.write_docs)
        write_section(path, section(argv_used, body, note, rlcard_version))
        print(f"wrote the bench_engine.py section of {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
