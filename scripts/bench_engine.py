#!/usr/bin/env python3
"""Benchmark the engine: random legal play, hands/s, steps/s and decisions/s, side by side with
RLCard's mahjong (random agents, its steps/s) when ``rlcard`` is installed (the ``bench`` extra).

A *step* is one ``Game.step`` call (every action a seat takes, forced or not); a *decision* is a
step where the seat had more than one legal action. Forced moves (draws, flower replacement,
a seat whose only option would be Pass) are not steps: the engine does them itself. RLCard's
mahjong is a different game (no flowers, no fan calculator, no minimum, only the discard win
check) and counts every env.step call; the ratio is indicative, not like for like.

    python scripts/bench_engine.py [--hands 2000] [--rlcard-games 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from mjenv.engine import Game


def bench_mjenv(hands: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    steps = decisions = 0
    start = time.perf_counter()
    for h in range(hands):
        g = Game(seed=seed + h, dealer=h % 4, prevalent_wind=(h // 4) % 4)
        while not g.is_over:
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            if len(legal) > 1:
                decisions += 1
            g.step(seat, legal[rng.randrange(len(legal))])
            steps += 1
    elapsed = time.perf_counter() - start
    return {"hands": hands, "seconds": elapsed, "hands_per_s": hands / elapsed,
            "steps_per_s": steps / elapsed, "decisions_per_s": decisions / elapsed,
            "steps_per_hand": steps / hands}


def bench_rlcard(games: int, seed: int) -> dict[str, float] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": seed})
    agents = [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        state, player = env.reset()
        while not env.is_over():
            action = agents[player].step(state)
            state, player = env.step(action)
            steps += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed,
            "steps_per_s": steps / elapsed, "steps_per_game": steps / games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--rlcard-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    ours = bench_mjenv(args.hands, args.seed)
    print(f"mjenv   {ours['hands']:.0f} hands in {ours['seconds']:.2f} s: "
          f"{ours['hands_per_s']:.0f} hands/s, {ours['steps_per_s']:.0f} steps/s, "
          f"{ours['decisions_per_s']:.0f} decisions/s ({ours['steps_per_hand']:.1f} steps/hand)")
    theirs = bench_rlcard(args.rlcard_games, args.seed)
    if theirs is None:
        print("rlcard  not installed (pip install rlcard): mjenv numbers only")
        return
    print(f"rlcard  {theirs['games']:.0f} games in {theirs['seconds']:.2f} s: "
          f"{theirs['games_per_s']:.0f} games/s, {theirs['steps_per_s']:.0f} steps/s "
          f"({theirs['steps_per_game']:.1f} steps/game)")
    print(f"ratio   mjenv steps/s / rlcard steps/s = "
          f"{ours['steps_per_s'] / theirs['steps_per_s']:.1f}x; "
          f"decisions/s / rlcard steps/s = "
          f"{ours['decisions_per_s'] / theirs['steps_per_s']:.1f}x")


if __name__ == "__main__":
    main()
