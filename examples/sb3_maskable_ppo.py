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
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import VecEnv

from mjenv.arena import ArenaConfig, run_arena
from mjenv.arena.runner import print_table
from mjenv.integrations.sb3 import agent_spec, make_env

FULL_STEPS = 400_000
"""The documented budget: about 7 minutes of training and 3 of arena on the shared 2-core
machine of docs/integrations.md (944 steps/s there)."""
SMOKE_STEPS = 4_096
GAMMA = 0.99


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


def make_parser(doc: str, out: str, full_steps: int) -> argparse.ArgumentParser:
    """The options both sb3 examples take (this one adds ``--opponents``, sb3_selfplay.py
    ``--refresh``): one definition, so that their budgets and defaults stay the same."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a few thousand steps (CI)")
    parser.add_argument("--steps", type=int, default=None,
                        help=f"environment steps (default {full_steps}; --smoke {SMOKE_STEPS})")
    parser.add_argument("--envs", type=int, default=8, help="environments in the DummyVecEnv")
    parser.add_argument("--shaping", type=float, default=0.05,
                        help="coefficient of the shanten potential (0: the score only)")
    parser.add_argument("--deals", type=int, default=None,
                        help="arena deals per baseline (default 200; --smoke 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=out, help="output folder")
    return parser


def prepare(args: argparse.Namespace, full_steps: int) -> tuple[int, int, Path]:
    """The run's environment steps and arena deals (``--smoke``'s where not given) and its
    output folder (made); torch on one thread."""
    steps = args.steps or (SMOKE_STEPS if args.smoke else full_steps)
    deals = args.deals or (4 if args.smoke else 200)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)  # small networks: one thread is fastest, and fair to neighbours
    return steps, deals, out


def learn(env: VecEnv, steps: int, seed: int, out: Path,
          callback: BaseCallback | None = None) -> tuple[MaskablePPO, float, Path]:
    """sb3-contrib's recipe, ``MaskablePPO("MultiInputPolicy", env).learn(...)``, with the
    documented settings (both examples use them); saves the model as ``out/model.zip`` and
    closes ``env``. Returns the model, the training seconds and the model's path."""
    model = MaskablePPO("MultiInputPolicy", env, n_steps=256, batch_size=512, n_epochs=4,
                        learning_rate=3e-4, gamma=GAMMA, ent_coef=0.01, seed=seed,
                        policy_kwargs={"net_arch": [256, 256]}, device="cpu", verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=steps, callback=callback)
    seconds = time.perf_counter() - start
    path = out / "model.zip"
    model.save(path)
    env.close()
    return model, seconds, path


def finish(model: MaskablePPO, seconds: float, path: Path, deals: int, seed: int,
           **extra: object) -> dict[str, object]:
    """The arena (:func:`evaluate`) for the saved model, then ``report.json`` beside it: steps,
    time, rate, ``extra`` and the arena's summary. Returns the report."""
    arena = evaluate(agent_spec(str(path)), path.parent, deals, seed)
    report = {"steps": model.num_timesteps, "seconds": round(seconds, 1),
              "steps_per_second": round(model.num_timesteps / seconds, 1), **extra,
              "arena": arena}
    (path.parent / "report.json").write_text(json.dumps(report, indent=2) + "\n",
                                             encoding="utf-8")
    return report


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = make_parser(__doc__, "runs/sb3-ppo", FULL_STEPS)
    parser.add_argument("--opponents", default="random", help="the opponents' agent spec")
    args = parser.parse_args(argv)
    steps, deals, out = prepare(args, FULL_STEPS)
    env = make_vec_env(make_env, n_envs=args.envs, seed=args.seed,
                       env_kwargs={"opponents": args.opponents, "shaping": args.shaping,
                                   "gamma": GAMMA, "reward": "normalized"})
    model, seconds, path = learn(env, steps, args.seed, out)
    print(f"trained {model.num_timesteps} steps in {seconds:.0f} s "
          f"({model.num_timesteps / seconds:.0f} steps/s); saved {path}")
    return finish(model, seconds, path, deals, args.seed)


if __name__ == "__main__":
    main()
