"""RLlib PPO on mjenv, multi-agent with one shared policy (self-play), then the mjenv arena.

    .venv/bin/python examples/rllib_ppo.py --smoke      # a few thousand steps (CI)
    .venv/bin/python examples/rllib_ppo.py              # the full budget (docs/integrations.md)

RLlib's own recipe: its PettingZoo wrapper (``PettingZooEnv``, a ``MultiAgentEnv``) over
``mjenv.integrations.rllib.RLlibAEC`` (observation under ``observations``, flattened; mask
under ``action_mask`` as float), its example ``ActionMaskingTorchRLModule``, and the
parameter-sharing setup of its PettingZoo example: the four seats map to one policy
``shared``. The reward is the hand's payment / 100 plus a shaping reward of 0.1 per shanten
that a seat's own action gains or loses: with four untrained players nearly every hand is an
exhaustive draw (no payment), and the shaping gives every decision a signal. After training,
the policy plays 1-vs-3 against ``random`` and ``greedy`` on duplicate deals.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("RAY_DEDUP_LOGS", "0")

import ray  # noqa: E402
from _common import make_parser, parse  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (  # noqa: E402
    ActionMaskingTorchRLModule,
)
from ray.tune.registry import register_env  # noqa: E402

from mjenv.integrations._common import arena_table  # noqa: E402
from mjenv.integrations.rllib import multi_agent_env  # noqa: E402

POLICY = "shared"


def get_args() -> argparse.Namespace:
    p = make_parser(__doc__)
    p.add_argument("--iterations", type=int, default=25)
    p.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    p.add_argument("--envs", type=int, default=4, help="envs stepped together (one forward pass)")
    p.add_argument("--minibatch", type=int, default=500)
    p.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--shaping", type=float, default=0.1, help="reward per shanten gained")
    p.add_argument("--hidden", type=int, nargs="*", default=[256, 256])
    return parse(p, "runs/rllib-ppo", iterations=2, batch=1000, minibatch=250, epochs=1,
                 eval_deals=4)


def main() -> None:
    args = get_args()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    register_env("mjenv", multi_agent_env)
    config = (
        PPOConfig()
        .environment("mjenv", env_config={"reward": "normalized", "shaping": args.shaping})
        .env_runners(num_env_runners=0, num_envs_per_env_runner=args.envs)
        .multi_agent(policies={POLICY},
                     policy_mapping_fn=lambda agent_id, episode, **kwargs: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            POLICY: RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                 model_config={"fcnet_hiddens": list(args.hidden),
                                               "vf_share_layers": False}),
        }))
        .training(train_batch_size_per_learner=args.batch, minibatch_size=args.minibatch,
                  num_epochs=args.epochs, lr=args.lr, gamma=0.99, lambda_=0.95,
                  entropy_coeff=args.entropy, vf_loss_coeff=0.5)
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    start = time.perf_counter()
    steps = 0
    for i in range(args.iterations):
        result = algo.train()
        steps = int(result["num_env_steps_sampled_lifetime"])
        ret = result["env_runners"].get("agent_episode_returns_mean", {})
        print(f"iteration {i + 1}/{args.iterations}: {steps} env steps, "
              f"mean seat return {sum(ret.values()) / max(len(ret), 1):+.3f}", flush=True)
    seconds = time.perf_counter() - start
    print(f"trained {steps} env steps in {seconds:.0f} s ({steps / seconds:.0f} steps/s in "
          "RLlib's loop, updates included)", flush=True)
    out = Path(args.out).resolve()
    checkpoint = algo.save(str(out / "checkpoint"))
    module_dir = Path(checkpoint.checkpoint.path) / "learner_group" / "learner" / "rl_module"
    module_dir = module_dir / POLICY
    algo.stop()
    ray.shutdown()
    print(f"saved {module_dir}", flush=True)
    arena_table(f"mjenv.integrations.rllib:RLlibAgent path='{module_dir}'", str(out / "arena"),
                deals=args.eval_deals, seed=args.seed)


if __name__ == "__main__":
    main()
