"""CleanRL-style single-file PPO on mjenv's raw PettingZoo env, with action masks (torch only).

In the manner of CleanRL's ``ppo.py``: one file, the arguments at the top, rollouts, GAE and the
clipped PPO update written out. The environment is ``mjenv.raw_env()`` (the AEC env) played in
``--num-envs`` copies at once; every seat is played by the one shared policy (parameter sharing),
so every decision of every seat is a training sample. The policy samples only legal actions:
illegal logits are set to a large negative number from ``obs["action_mask"]``.

Reward: each seat's hand payment / 100 (``reward="normalized"``) plus potential-based shaping
toward ready hands: the potential is ``-coef * shanten`` of the seat's own hand at its decision
(0 once the hand is over), and each transition adds ``gamma * phi(next) - phi(now)``. A potential
difference leaves the optimal policy unchanged (the objective stays the score); without it a
learner from scratch almost never sees a win (a random table draws almost every hand).

    python examples/cleanrl_ppo.py --smoke     # a few thousand decisions, under a minute
    python examples/cleanrl_ppo.py             # the full budget (docs/integrations.md)

The trained policy then plays the arena, 1 vs 3 over duplicate deals against ``random`` and
``greedy``; from the command line (the examples folder on the path)::

    PYTHONPATH=examples mjenv arena \\
        --agents "cleanrl_ppo:CleanRLAgent path=runs/cleanrl/agent.pt" random --deals 200
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

import mjenv
from mjenv.shanten import shanten_counts

OBS_SHAPE = (86, 34)
NUM_ACTIONS = 235
AGENTS = ("player_0", "player_1", "player_2", "player_3")


@dataclass
class Args:
    seed: int = 0
    total_decisions: int = 600_000
    """decisions of all seats to train on (the full budget: about 5 minutes of training and 2
    of arena on the shared 2-core machine of docs/integrations.md, 2,255 decisions/s there)"""
    num_envs: int = 16
    rollout_decisions: int = 4096
    """decisions per rollout (every hand in flight is played to its end)"""
    learning_rate: float = 3e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    shaping: float = 0.05
    hidden: int = 256
    deals: int = 200
    """arena deals per baseline"""
    out: str = "runs/cleanrl"


class Policy(nn.Module):
    """An MLP trunk over the flattened (86, 34) observation with an actor head (235 logits) and
    a critic head. One trunk for both (CleanRL's ppo.py has two): the first layer, 2924 inputs
    wide, is most of the compute, and sharing it halves the time of a rollout and an update."""

    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        n_in = OBS_SHAPE[0] * OBS_SHAPE[1]
        self.trunk = nn.Sequential(nn.Flatten(), nn.Linear(n_in, hidden), nn.Tanh(),
                                   nn.Linear(hidden, hidden), nn.Tanh())
        self.actor = nn.Linear(hidden, NUM_ACTIONS)
        self.critic = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.actor.weight, 0.01)
        nn.init.orthogonal_(self.critic.weight, 1.0)

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        return self.actor(self.trunk(obs))

    def act(self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None,
            ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """(action, log-prob, entropy, value) of the masked categorical policy."""
        hidden = self.trunk(obs)
        logits = self.actor(hidden).masked_fill(~mask, -1e8)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(hidden).squeeze(-1)


class CleanRLAgent:
    """The trained policy as an mjenv agent (``reset``/``act``): the most probable legal action.
    Arena spec: ``cleanrl_ppo:CleanRLAgent path=agent.pt`` (examples/ on the Python path)."""

    spec_argument = "path"

    def __init__(self, path: str, hidden: int | None = None) -> None:
        saved = torch.load(path, map_location="cpu", weights_only=True)
        self.policy = Policy(hidden or int(saved["hidden"]))
        self.policy.load_state_dict(saved["state_dict"])
        self.policy.eval()

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        with torch.no_grad():
            logits = self.policy.logits(torch.as_tensor(observation).unsqueeze(0))[0]
        logits[torch.as_tensor(action_mask) == 0] = -torch.inf
        return int(torch.argmax(logits))


def potential(env: mjenv.mahjong_env.MahjongEnv, agent: str, coef: float) -> float:
    view = env.view(agent)
    return -coef * shanten_counts(view.hand, len(view.melds[view.seat]))


def rollout(envs: list[mjenv.mahjong_env.MahjongEnv], policy: Policy, args: Args,
            rng: np.random.Generator, stats: dict[str, float]) -> dict[str, torch.Tensor]:
    """Play until ``rollout_decisions`` decisions are collected and every hand in flight has
    ended; returns the flat batch with GAE advantages (every trajectory ends at a terminal)."""
    # per (env, seat): lists of obs, mask, action, logp, value, reward, phi
    trajs: list[list[dict[str, list[object]]]] = [
        [{k: [] for k in ("obs", "mask", "act", "logp", "val", "rew")} for _ in AGENTS]
        for _ in envs]
    phis = [[0.0] * 4 for _ in envs]
    finished: list[dict[str, list[object]]] = []
    decisions = 0
    live = list(range(len(envs)))
    while live:
        batch_obs, batch_mask, who = [], [], []
        for i in list(live):
            env = envs[i]
            if env.terminations[AGENTS[0]]:  # the hand ended: close every seat's trajectory
                for s, a in enumerate(AGENTS):
                    t = trajs[i][s]
                    if t["act"]:
                        t["rew"][-1] = float(t["rew"][-1]) + env.rewards[a] - phis[i][s]
                        finished.append(t)
                    trajs[i][s] = {k: [] for k in t}
                    stats["hands"] += s == 0
                    stats["score"] += env.rewards[a] * (s == 0)
                if decisions >= args.rollout_decisions:
                    live.remove(i)
                    continue
                env.reset(seed=int(rng.integers(2**63)))
            agent = env.agent_selection
            s = AGENTS.index(agent)
            obs = env.observe(agent)
            batch_obs.append(obs["observation"])
            batch_mask.append(obs["action_mask"])
            who.append((i, s))
        if not who:
            break
        obs_t = torch.as_tensor(np.stack(batch_obs))
        mask_t = torch.as_tensor(np.stack(batch_mask)).bool()
        with torch.no_grad():
            action, logp, _, value = policy.act(obs_t, mask_t)
        for k, (i, s) in enumerate(who):
            env, t = envs[i], trajs[i][s]
            phi = potential(env, AGENTS[s], args.shaping)
            if t["act"]:  # the previous decision's reward: shaping up to this decision
                t["rew"][-1] = float(t["rew"][-1]) + args.gamma * phi - phis[i][s]
            phis[i][s] = phi
            for key, v in (("obs", obs_t[k]), ("mask", mask_t[k]), ("act", action[k]),
                           ("logp", logp[k]), ("val", value[k]), ("rew", 0.0)):
                t[key].append(v)
            env.step(int(action[k]))
            decisions += 1
    return _gae(finished, args)


def _gae(trajs: list[dict[str, list[object]]], args: Args) -> dict[str, torch.Tensor]:
    cols: dict[str, list[torch.Tensor]] = {k: [] for k in ("obs", "mask", "act", "logp", "adv",
                                                          "ret")}
    for t in trajs:
        rew = torch.tensor(t["rew"], dtype=torch.float32)
        val = torch.stack(t["val"])  # type: ignore[arg-type]
        adv = torch.zeros_like(rew)
        last = 0.0
        for j in reversed(range(len(rew))):
            next_val = val[j + 1] if j + 1 < len(rew) else 0.0
            delta = rew[j] + args.gamma * next_val - val[j]
            last = delta + args.gamma * args.gae_lambda * last
            adv[j] = last
        cols["adv"].append(adv)
        cols["ret"].append(adv + val)
        for key in ("obs", "mask", "act", "logp"):
            cols[key].append(torch.stack(t[key]))  # type: ignore[arg-type]
    return {k: torch.cat(v) for k, v in cols.items()}


def update(policy: Policy, optimizer: torch.optim.Optimizer, b: dict[str, torch.Tensor],
           args: Args) -> None:
    n = len(b["act"])
    for _ in range(args.update_epochs):
        # num_minibatches nearly equal parts (no stray minibatch of one, whose std is NaN)
        for idx in torch.tensor_split(torch.randperm(n), args.num_minibatches):
            _, logp, entropy, value = policy.act(b["obs"][idx], b["mask"][idx], b["act"][idx])
            ratio = (logp - b["logp"][idx]).exp()
            adv = b["adv"][idx]
            adv = (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)
            pg_loss = torch.max(-adv * ratio,
                                -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
            v_loss = 0.5 * ((value - b["ret"][idx]) ** 2).mean()
            loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(policy.parameters(), args.max_grad_norm)
            optimizer.step()


def evaluate(path: Path, out: Path, deals: int, seed: int) -> dict[str, dict[str, float]]:
    """1 vs 3 on duplicate deals against ``random`` and ``greedy``, in the mjenv arena."""
    from mjenv.arena import ArenaConfig, run_arena
    from mjenv.arena.runner import print_table

    spec = f"cleanrl_ppo:CleanRLAgent path='{path}'"
    summary = {}
    for baseline in ("random", "greedy"):
        config = ArenaConfig(agents=(spec, baseline), deals=deals, seed=seed,
                             names=("learner", baseline))
        results = run_arena(config, out / f"arena-{baseline}", progress=False)
        print(f"\nlearner vs three {baseline}, {deals} duplicate deals:")
        print(print_table(results))
        m, d = results["agents"]["learner"]["mean_score"], results["score_difference"]
        summary[baseline] = {"mean": m["mean"], "low": m["low"], "high": m["high"],
                             "diff": d["mean"], "diff_low": d["low"], "diff_high": d["high"]}
    return summary


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a few thousand decisions (CI)")
    for field, value in asdict(Args()).items():
        parser.add_argument("--" + field.replace("_", "-"), type=type(value), default=None)
    ns = parser.parse_args(argv)
    args = Args(**{k: v for k, v in vars(ns).items() if k != "smoke" and v is not None})
    if ns.smoke:
        args.total_decisions = ns.total_decisions or 4096
        args.rollout_decisions = ns.rollout_decisions or 2048
        args.num_envs = ns.num_envs or 8
        args.deals = ns.deals or 4
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    envs = [mjenv.raw_env(reward="normalized") for _ in range(args.num_envs)]
    for env in envs:
        env.reset(seed=int(rng.integers(2**63)))
    policy = Policy(args.hidden)
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.learning_rate, eps=1e-5)
    done, start = 0, time.perf_counter()
    while done < args.total_decisions:
        stats = {"hands": 0.0, "score": 0.0}
        batch = rollout(envs, policy, args, rng, stats)
        update(policy, optimizer, batch, args)
        done += len(batch["act"])
        print(f"decisions {done:>9}  hands {int(stats['hands']):>4}  "
              f"{done / (time.perf_counter() - start):.0f} decisions/s")
    seconds = time.perf_counter() - start
    path = out / "agent.pt"
    torch.save({"state_dict": policy.state_dict(), "hidden": args.hidden}, path)
    print(f"trained on {done} decisions in {seconds:.0f} s; saved {path}")
    arena = evaluate(path, out, args.deals, args.seed)
    report = {"decisions": done, "seconds": round(seconds, 1),
              "decisions_per_second": round(done / seconds, 1), "arena": arena}
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
