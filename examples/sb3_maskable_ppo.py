"""sb3-contrib MaskablePPO on mjenv: one learner against three fixed opponents, then the arena.

The recipe of sb3-contrib's documentation for an env with ``action_masks()``:
``MaskablePPO("MultiInputPolicy", env).learn(...)``. mjenv's single-agent env has the method, so
the only additions are the reward shaping and the arena evaluation (mjenv.integrations.sb3).

Opponents and reward: three ``random`` players, the hand's score / 100, plus potential-based
shanten shaping (``ShantenShaping``: ``-0.05 * shanten`` of the learner's hand as the potential).
Against three random players almost every hand is an exhaustive draw, so the score alone gives
the learner nearly no signal; the shaping pays each step's progress toward a ready hand and,
being a potential difference, leaves the objective (the score) unchanged.

    python examples/sb3_maskable_ppo.py --smoke      # a few thousand steps, under a minute
    python examples/sb3_maskable_ppo.py              # the full budget (docs/integrations.md)

Then the saved model plays the arena: 1 vs 3 over duplicate deals against ``random`` and
``greedy`` (``--deals``); the same from the command line::

    mjenv arena --agents "mjenv.integrations.sb3:MaskablePPOAgent path=runs/sb3-ppo/model.zip" \\
        random --deals 200
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

from mjenv.arena import ArenaConfig, run_arena
from mjenv.arena.runner import print_table
from mjenv.integrations.sb3 import agent_spec, make_env

FULL_STEPS = 400_000
"""The documented budget: about 7 minutes of training and 3 of arena on the shared 2-core
machine of docs/integrations.md (944 steps/s there)."""
SMOKE_STEPS = 4_096


def evaluate(spec: str, out: Path, deals: int, seed: int,
             baselines: tuple[str, ...] = ("random", "greedy")) -> dict[str, dict[str, float]]:
    """1 vs 3 on duplicate deals against each baseline; prints the arena's tables and returns
    the challenger's mean score per hand and the score difference, with their 95% CIs."""
    summary: dict[str, dict[str, float]] = {}
    for baseline in baselines:
        config = ArenaConfig(agents=(spec, baseline), deals=deals, seed=seed,
                             names=("learner", baseline))
        results = run_arena(config, out / f"arena-{baseline}", progress=False)
        print(f"\nlearner vs three {baseline}, {deals} duplicate deals:")
        print(print_table(results))
        mean = results["agents"]["learner"]["mean_score"]
        diff = results["score_difference"]
        summary[baseline] = {"mean": mean["mean"], "low": mean["low"], "high": mean["high"],
                             "diff": diff["mean"], "diff_low": diff["low"],
                             "diff_high": diff["high"]}
    return summary


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a few thousand steps (CI)")
    parser.add_argument("--steps", type=int, default=None,
                        help=f"environment steps (default {FULL_STEPS}; --smoke {SMOKE_STEPS})")
    parser.add_argument("--envs", type=int, default=8, help="environments in the DummyVecEnv")
    parser.add_argument("--opponents", default="random", help="the opponents' agent spec")
    parser.add_argument("--shaping", type=float, default=0.05,
                        help="coefficient of the shanten potential (0: the score only)")
    parser.add_argument("--deals", type=int, default=None,
                        help="arena deals per baseline (default 200; --smoke 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="runs/sb3-ppo", help="output folder")
    args = parser.parse_args(argv)
    steps = args.steps or (SMOKE_STEPS if args.smoke else FULL_STEPS)
    deals = args.deals or (4 if args.smoke else 200)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)  # small networks: one thread is fastest, and fair to neighbours

    gamma = 0.99
    env = make_vec_env(make_env, n_envs=args.envs, seed=args.seed,
                       env_kwargs={"opponents": args.opponents, "shaping": args.shaping,
                                   "gamma": gamma, "reward": "normalized"})
    model = MaskablePPO("MultiInputPolicy", env, n_steps=256, batch_size=512, n_epochs=4,
                        learning_rate=3e-4, gamma=gamma, ent_coef=0.01, seed=args.seed,
                        policy_kwargs={"net_arch": [256, 256]}, device="cpu", verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    seconds = time.perf_counter() - start
    path = out / "model.zip"
    model.save(path)
    env.close()
    print(f"trained {model.num_timesteps} steps in {seconds:.0f} s "
          f"({model.num_timesteps / seconds:.0f} steps/s); saved {path}")

    arena = evaluate(agent_spec(str(path)), out, deals, args.seed)
    report = {"steps": model.num_timesteps, "seconds": round(seconds, 1),
              "steps_per_second": round(model.num_timesteps / seconds, 1), "arena": arena}
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
