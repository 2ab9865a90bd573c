"""How much duplicate deals shrink the standard error of a 1-vs-3 score difference.

    python scripts/variance_check.py --deals 500 --agents "random seed=1" "random seed=2"

Plays the same comparison twice: on duplicate deals (each deal with the challenger in each of
the four seats) and on independent deals (each of those four games on a fresh deal), and prints
the standard error of the score difference (the arena's estimator: challenger's mean per hand
minus the mean of the baseline seats, averaged per deal group) for both and their ratio.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from mjenv.arena.config import ArenaConfig, Task
from mjenv.arena.play import play_task
from mjenv.arena.stats import mean_ci


def _difference(config: ArenaConfig, tasks: list[Task]) -> float:
    rows = [r for t in tasks for r in play_task(config, t)]
    a = [r["score"] for r in rows if r["agent"] == config.names[0]]
    b = [r["score"] for r in rows if r["agent"] == config.names[1]]
    return float(np.mean(a) - np.mean(b))


def _pair(args: tuple[tuple[str, str], int, int, int]) -> tuple[float, float]:
    agents, seed, d, n = args
    config = ArenaConfig(agents=agents, deals=5 * n, seed=seed)
    seeds = config.deal_seeds()
    seatings = config.seatings()
    duplicate = [Task(d, k, seatings[k], seeds[d]) for k in range(4)]
    independent = [Task(n + 4 * d + k, k, seatings[k], seeds[n + 4 * d + k]) for k in range(4)]
    return _difference(config, duplicate), _difference(config, independent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--agents", nargs=2, default=["random seed=1", "random seed=2"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    agents = (args.agents[0], args.agents[1])
    jobs = [(agents, args.seed, d, args.deals) for d in range(args.deals)]
    with ProcessPoolExecutor(args.workers) as pool:
        pairs = list(pool.map(_pair, jobs, chunksize=8))
    dup = mean_ci([p[0] for p in pairs])
    ind = mean_ci([p[1] for p in pairs])
    print(f"{agents[0]} vs {agents[1]}, {args.deals} deals (seed {args.seed})")
    print(f"  duplicate:   difference {dup['mean']:+.3f}, standard error {dup['se']:.3f}")
    print(f"  independent: difference {ind['mean']:+.3f}, standard error {ind['se']:.3f}")
    print(f"  ratio of standard errors {dup['se'] / ind['se']:.2f}")


if __name__ == "__main__":
    main()
