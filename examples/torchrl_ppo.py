"""TorchRL PPO on mjenv with a masked categorical policy, then the mjenv arena.

    .venv/bin/python examples/torchrl_ppo.py --smoke      # a few thousand steps (CI)
    .venv/bin/python examples/torchrl_ppo.py              # the full budget (docs/integrations.md)

TorchRL's PPO recipe (Collector, GAE, ClipPPOLoss, a replay buffer of each batch)
on ``mjenv.integrations.torchrl.gym_env``: one learner seat (drawn at every reset) against
three ``random`` players, TorchRL's ``MaskedCategorical`` reading the ``action_mask`` key. The
reward is the hand's payment / 100 plus 0.1 per shanten that the learner's own action gains or
loses: against random players most hands are exhaustive draws with no payment, and the shaping
gives every decision a signal. After training, the policy plays 1-vs-3 against ``random`` and
``greedy`` on duplicate deals.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import torch
from _common import make_parser, parse
from tensordict.nn import TensorDictModule
from torchrl.collectors import Collector
from torchrl.data import LazyTensorStorage, ReplayBuffer
from torchrl.data.replay_buffers.samplers import SamplerWithoutReplacement
from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value import GAE

from mjenv.integrations._common import arena_table
from mjenv.integrations.torchrl import PolicyNet, gym_env, save_checkpoint


def get_args() -> argparse.Namespace:
    p = make_parser(__doc__)
    p.add_argument("--frames", type=int, default=120_000, help="learner steps in all")
    p.add_argument("--batch", type=int, default=2048, help="learner steps per iteration")
    p.add_argument("--minibatch", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--shaping", type=float, default=0.1, help="reward per shanten gained")
    p.add_argument("--opponents", default="random", help="agent spec of the three opponents")
    p.add_argument("--hidden", type=int, nargs="*", default=[256, 256])
    return parse(p, "runs/torchrl-ppo", frames=2048, batch=1024, epochs=1, eval_deals=4)


def main() -> None:
    args = get_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    env = gym_env(opponents=args.opponents, shaping=args.shaping, reward="normalized")
    env.set_seed(args.seed)
    obs_shape = tuple(env.observation_spec["observation"].shape)

    policy_net = PolicyNet(obs_shape, args.hidden)
    actor = ProbabilisticActor(
        TensorDictModule(policy_net, in_keys=["observation"], out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": "action_mask"}, out_keys=["action"],
        distribution_class=MaskedCategorical, return_log_prob=True,
        spec=env.action_spec)
    critic = ValueOperator(PolicyNet(obs_shape, args.hidden, outputs=1),
                           in_keys=["observation"])
    collector = Collector(env, actor, frames_per_batch=args.batch,
                                  total_frames=args.frames, split_trajs=False,
                          auto_register_policy_transforms=False)
    buffer = ReplayBuffer(storage=LazyTensorStorage(args.batch),
                          sampler=SamplerWithoutReplacement(), batch_size=args.minibatch)
    advantage = GAE(gamma=0.99, lmbda=0.95, value_network=critic, average_gae=True)
    loss_fn = ClipPPOLoss(actor, critic, clip_epsilon=0.2, entropy_coeff=args.entropy,
                          critic_coeff=0.5)
    optim = torch.optim.Adam(loss_fn.parameters(), lr=args.lr)

    start = time.perf_counter()
    frames = 0
    for i, data in enumerate(collector):
        frames += data.numel()
        for _ in range(args.epochs):
            with torch.no_grad():
                advantage(data)
            buffer.extend(data.reshape(-1))
            for _ in range(max(args.batch // args.minibatch, 1)):
                losses = loss_fn(buffer.sample())
                loss = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
                optim.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(loss_fn.parameters(), 1.0)
                optim.step()
        done = data["next", "done"].squeeze(-1)
        reward = data["next", "reward"].sum().item() / max(int(done.sum()), 1)
        print(f"iteration {i + 1}: {frames} learner steps, {int(done.sum())} hands, "
              f"return per hand {reward:+.3f}", flush=True)
        collector.update_policy_weights_()
    seconds = time.perf_counter() - start
    collector.shutdown()
    print(f"trained {frames} learner steps in {seconds:.0f} s ({frames / seconds:.0f} steps/s "
          "in TorchRL's loop, updates included)", flush=True)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "policy.pt"
    save_checkpoint(str(path), policy_net, obs_shape, args.hidden)
    print(f"saved {path}", flush=True)
    arena_table(f"mjenv.integrations.torchrl:TorchRLAgent path='{path}'", str(out / "arena"),
                deals=args.eval_deals, seed=args.seed)


if __name__ == "__main__":
    main()
