"""Tianshou DQN on mjenv: a masked Q-network learns against three fixed opponents, then plays
the mjenv arena against ``random`` and ``greedy`` on duplicate deals.

    .venv/bin/python examples/tianshou_dqn.py --smoke      # a few thousand steps (CI)
    .venv/bin/python examples/tianshou_dqn.py              # the full budget (docs/integrations.md)

The env is ``mjenv.integrations.tianshou.gym_env``: one learner seat (drawn at every reset)
against three ``random`` players, the observation ``{"obs", "mask"}`` where Tianshou's DQN looks
for the mask, the reward the hand's payment / 100 plus a shaping reward of 0.1 per shanten that
the learner's own action gains or loses. Against three random players most hands are
exhaustive draws (no payment at all); the shaping gives the learner a signal at every decision,
and a learner that gets ready hands wins the hands that random players cannot.

Everything else is Tianshou's own recipe (DummyVectorEnv, Collector, VectorReplayBuffer,
DQN.run_training with OffPolicyTrainerParams).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
import torch
from _common import make_parser, parse
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OffPolicyTrainerParams

from mjenv.integrations._common import arena_table
from mjenv.integrations.tianshou import gym_env, make_net, save_checkpoint


def get_args() -> argparse.Namespace:
    p = make_parser(__doc__, "a few thousand steps and a short evaluation (CI)")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--epoch-steps", type=int, default=10_000, help="learner steps per epoch")
    p.add_argument("--envs", type=int, default=16)
    p.add_argument("--opponents", default="random", help="agent spec of the three opponents")
    p.add_argument("--shaping", type=float, default=0.1, help="reward per shanten gained")
    p.add_argument("--hidden", type=int, nargs="*", default=[256, 256])
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--gamma", type=float, default=0.95)
    p.add_argument("--n-step", type=int, default=3)
    p.add_argument("--target-update", type=int, default=500)
    p.add_argument("--buffer", type=int, default=30_000)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--updates-per-step", type=float, default=0.125)
    p.add_argument("--eps-start", type=float, default=0.3)
    p.add_argument("--eps-end", type=float, default=0.02)
    return parse(p, "runs/tianshou-dqn", epochs=1, epoch_steps=2_000, envs=4, eval_deals=4,
                 buffer=10_000)


def main() -> None:
    args = get_args()
    torch.set_num_threads(1)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    env_options = {"reward": "normalized"}

    def make_env():  # type: ignore[no-untyped-def]
        return gym_env(opponents=args.opponents, shaping=args.shaping, **env_options)

    env = make_env()
    obs_shape = env.observation_space["obs"].shape
    training_envs = DummyVectorEnv([make_env for _ in range(args.envs)])
    training_envs.seed(args.seed)

    net = make_net(obs_shape, args.hidden)
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                     eps_training=args.eps_start, eps_inference=0.0)
    algorithm = DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.lr), gamma=args.gamma,
                    n_step_return_horizon=args.n_step, target_update_freq=args.target_update)
    # Tianshou 2.0.1 checks the whole buffer for NaNs (a deep copy) after every collect, in its
    # trainer and, unless told not to, in the collector: with 2,924-float observations that
    # check grew to dominate the run. So: a modest buffer holding no separate obs_next (read
    # from the next transition), collects of 8 steps per env, the collector's check off.
    buffer = VectorReplayBuffer(args.buffer, len(training_envs), ignore_obs_next=True)
    collector = Collector[CollectStats](algorithm, training_envs, buffer,
                                        exploration_noise=True, raise_on_nan_in_buffer=False)
    collector.reset()
    collector.collect(n_step=args.batch * args.envs)
    total = args.epochs * args.epoch_steps
    start = time.perf_counter()

    logged = [0]

    def training_fn(epoch: int, env_step: int) -> None:  # linear epsilon decay, a log line
        frac = min(env_step / (0.6 * total), 1.0)
        policy.set_eps_training(args.eps_start + frac * (args.eps_end - args.eps_start))
        if epoch != logged[0]:
            logged[0] = epoch
            print(f"epoch {epoch}/{args.epochs}: {env_step} learner steps, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)

    algorithm.run_training(OffPolicyTrainerParams(
        training_collector=collector, test_collector=None, max_epochs=args.epochs,
        epoch_num_steps=args.epoch_steps, collection_step_num_env_steps=args.envs * 8,
        batch_size=args.batch, update_step_num_gradient_steps_per_sample=args.updates_per_step,
        training_fn=training_fn, test_in_training=False, show_progress=False))
    seconds = time.perf_counter() - start
    print(f"trained {total} learner steps in {seconds:.0f} s ({total / seconds:.0f} steps/s "
          "in Tianshou's loop, updates included)", flush=True)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "dqn.pt"
    save_checkpoint(str(path), net, obs_shape, args.hidden, env_options)
    training_envs.close()
    print(f"saved {path}", flush=True)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    arena_table(f"mjenv.integrations.tianshou:TianshouAgent path='{path}'", str(out / "arena"),
                deals=args.eval_deals, seed=args.seed)


if __name__ == "__main__":
    main()
