"""sb3-contrib MaskablePPO self-play on mjenv: the three opponents are a frozen copy of the
learner, refreshed as it learns; then the arena.

``mjenv.integrations.sb3.SelfPlayEnv`` is the single-agent env whose opponents play one
frozen copy of the learner's policy (a random player until the first copy arrives);
``SelfPlayCallback`` gives each env that copy when training starts and loads the learner's
weights into it every ``--refresh`` steps (through ``env_method``, so a ``SubprocVecEnv`` works
too). The learner's seat is drawn per hand, so it learns every seat.

Reward: the hand's score / 100 plus potential-based shanten shaping (``ShantenShaping``, see
examples/sb3_maskable_ppo.py): a table of beginners draws almost every hand, and the shaping
pays progress toward a ready hand without changing the objective.

    python examples/sb3_selfplay.py --smoke      # a few thousand steps, under a minute
    python examples/sb3_selfplay.py              # the full budget (docs/integrations.md)

The saved model then plays 1 vs 3 over duplicate deals against ``random`` and ``greedy``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO
from sb3_maskable_ppo import evaluate
from stable_baselines3.common.env_util import make_vec_env

from mjenv.integrations.sb3 import SelfPlayCallback, agent_spec, make_selfplay_env

FULL_STEPS = 300_000
"""The documented budget: 15–18 minutes on a 2-core machine (17.4 min measured with other jobs
running; docs/integrations.md)."""
SMOKE_STEPS = 4_096


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a few thousand steps (CI)")
    parser.add_argument("--steps", type=int, default=None,
                        help=f"environment steps (default {FULL_STEPS}; --smoke {SMOKE_STEPS})")
    parser.add_argument("--envs", type=int, default=8, help="environments in the DummyVecEnv")
    parser.add_argument("--refresh", type=int, default=None,
                        help="steps between opponent refreshes (default 20000; --smoke 1024)")
    parser.add_argument("--shaping", type=float, default=0.05,
                        help="coefficient of the shanten potential (0: the score only)")
    parser.add_argument("--deals", type=int, default=None,
                        help="arena deals per baseline (default 200; --smoke 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="runs/sb3-selfplay", help="output folder")
    args = parser.parse_args(argv)
    steps = args.steps or (SMOKE_STEPS if args.smoke else FULL_STEPS)
    refresh = args.refresh or (1024 if args.smoke else 20_000)
    deals = args.deals or (4 if args.smoke else 200)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)  # small networks: one thread is fastest, and fair to neighbours

    gamma = 0.99
    env = make_vec_env(make_selfplay_env, n_envs=args.envs, seed=args.seed,
                       env_kwargs={"shaping": args.shaping, "gamma": gamma,
                                   "reward": "normalized"})
    model = MaskablePPO("MultiInputPolicy", env, n_steps=256, batch_size=512, n_epochs=4,
                        learning_rate=3e-4, gamma=gamma, ent_coef=0.01, seed=args.seed,
                        policy_kwargs={"net_arch": [256, 256]}, device="cpu", verbose=0)
    callback = SelfPlayCallback(refresh=refresh)
    start = time.perf_counter()
    model.learn(total_timesteps=steps, callback=callback)
    seconds = time.perf_counter() - start
    path = out / "model.zip"
    model.save(path)
    env.close()
    print(f"trained {model.num_timesteps} steps in {seconds:.0f} s "
          f"({model.num_timesteps / seconds:.0f} steps/s), {callback.refreshes} opponent "
          f"refreshes; saved {path}")

    arena = evaluate(agent_spec(str(path)), out, deals, args.seed)
    report = {"steps": model.num_timesteps, "seconds": round(seconds, 1),
              "steps_per_second": round(model.num_timesteps / seconds, 1),
              "refreshes": callback.refreshes, "arena": arena}
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
