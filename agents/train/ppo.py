"""PPO self-play: a :class:`~mjenv_agents.policy.PolicyNet` improves by playing MCR hands
against an opponent pool (itself, its past snapshots, fixed baselines). CleanRL-style, one
readable file.

Run::

    python -m mjenv_agents.train.ppo --config configs/ppo.toml init=runs/demo/bc/final.pt
    mjenv train --config demo          # behaviour cloning, then this, then the arena

Settings are the fields of :class:`Args` (TOML ``key = value`` pairs and ``key=value``
overrides, as in :mod:`mjenv_agents.train.bc`).

**Rollouts.** ``games`` hands of ``mjenv.raw_env(rules=rules)`` are in play at once (each on a table
of the vector API, :class:`mjenv.vector.slot.GameSlot`: the same hands from the same seeds, without
PettingZoo's bookkeeping), in this process, or in each of ``rollout_workers`` workers (each with its
own random streams and a copy of the learner's weights sent before every collection; their batches
are joined in worker order, so runs stay reproducible). ``backend`` says where the workers run:
``processes`` on this machine, or ``ray``, Ray actors on a local Ray or the cluster at
``ray_address`` (:mod:`mjenv_agents.train.ray_rollouts`: the weights go through Ray's object store,
one ``ray.put`` per update); the same seeds give the same run on both. The workers live as long as
the run and restart their streams at each checkpoint update. Each hand gets a seating: one opponent
kind is drawn from ``opponents`` with ``opponent_weights``, and

* ``"self"``: the learner plays all four seats (every decision is training data);
* ``"pool"``: the learner plays one random seat, a snapshot drawn uniformly from the pool (the
  ``init`` checkpoint and one snapshot every ``pool_interval`` updates, the last ``pool_size``
  of them) the other three; it samples from its own softmax;
* anything else is an agent spec (``"greedy"``, ``"rule"``, ``"policy:PATH"`` ...) playing the
  other three seats.

Every tick, each hand in play plays on until a network is to act: the agents' seats decide as
they come. Then the learner's decisions (and each snapshot's) go through the network in one
batch (its frozen copy, :func:`~mjenv_agents.policy.frozen`, made again for every collection),
sampled from the masked softmax with Gumbel noise from a seeded ``torch.Generator``
(:func:`sample_gumbel`). A finished hand is replaced by a new one. A learner seat's
decisions form one trajectory whose only reward comes at its end: the seat's payment times
``reward_scale`` (MCR scores run from -30ish to +300; the default 0.02 maps a common win to
about +1). Advantages are GAE(``gamma``, ``gae_lambda``) over the trajectory, bootstrapping
nothing (a hand always ends).

**Updates.** Once at least ``decisions_per_update`` decisions of finished hands are collected,
PPO runs ``epochs`` passes of minibatches of ``minibatch_size``: clipped surrogate
(``clip_coef``), value loss (``vf_coef``, squared error against the GAE return), entropy bonus
(``ent_coef``; the entropy of the masked softmax, over legal actions only), advantages
normalised per minibatch, gradients clipped to ``max_grad_norm``, Adam at ``learning_rate``
(linearly annealed to zero with ``anneal_lr``); the first ``value_warmup`` updates train the
value head alone (a cloned network starts with an untrained one). Decisions taken by an older
network in hands that straddle an update are corrected by the ratio against the probability
recorded when they were played (the clipping bounds it).

**The learner's device.** ``device = "cuda"`` trains on the GPU (each update's batch moved
there once; the minibatch order and the action sampling stay on CPU generators, and cuDNN
runs its deterministic kernels (:func:`~mjenv_agents.train.common.learner_device`), so a run
is reproducible on its device), and the in-process rollout's batched inference runs there too;
worker processes and actors infer on their CPU. ``auto`` takes the GPU when torch sees one;
``cuda`` where it sees none is a one-line error before anything is written
(:func:`~mjenv_agents.train.common.resolve_device`).

**Evaluation.** Before the first update (when ``eval_interval`` is set), every
``eval_interval`` updates and after the last, the current network is saved as
``snapshots/update_<u>.pt`` and played in the arena (:mod:`mjenv.arena`), 1-vs-3 against
``eval_opponent`` on ``eval_deals`` duplicate deals of the fixed seed ``eval_seed``:
the learning curve, logged as ``eval/score_diff`` with its 95% interval
(``eval/score_diff_low``, ``eval/score_diff_high``), ``eval/win_rate`` and
``eval/deal_in_rate``, plotted with error bars in ``learning_curve.png``; each arena run is kept
in ``eval/update_<u>/`` (resumable like any arena run), with the records of the games that
``eval_records`` selects in ``eval/update_<u>/records/`` (watch how the policy's play changes:
``mjenv view``). With ``eval_workers`` above 1, every point plays on the same arena workers
(:class:`mjenv.arena.WorkerPool`, started at the first point), not on new ones each time.
With ``eval_control`` (``init``: the starting network), the control plays the
same deals once (``eval/control/``) and every point also logs ``eval/control_diff`` (with
``_low``, ``_high``): its score difference minus the control's, paired deal by deal
(:func:`mjenv.arena.stats.control_difference`). The control is the same for every point, so
these rank the snapshots exactly as the plain differences do; their intervals are narrower
only where the learner's and the control's per-deal results correlate above about 0.5, which
measured MCR play does not reach (docs/training.md, "Ranking snapshots"): off by default.

**Run folder** (``out``): ``config.toml``, ``metrics.csv`` and TensorBoard events (the names
in :data:`METRICS`, one row per ``log_interval`` updates plus the evaluation rows),
``checkpoint_<u>.pt`` every ``checkpoint_interval`` updates (weights, optimizer, update),
``snapshots/``, ``eval/``, ``learning_curve.png`` and ``final.pt``.

**Resuming and determinism.** The random streams (hand seeds, seatings, opponents' seeds, the
action sampler, minibatch order) restart from ``(seed, u)`` at every checkpoint update ``u``,
and the hands in play are dropped there: a run resumed from ``checkpoint_<u>.pt`` continues
exactly as the uninterrupted run did (on CPU, same thread count). Running the same command again
resumes; a folder holding another config is refused.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import torch

from mjenv.actions import NUM_ACTIONS
from mjenv.arena.runner import WorkerPool, run_arena
from mjenv.encoders import SeatEncoder, make_encoder
from mjenv.procs import (
    available_cores,
    die_with_parent,
    ignore_interrupts,
    sigterm_raises,
    torch_threads,
)
from mjenv.vector.options import EnvOptions
from mjenv.vector.slot import GameSlot

from ..features import feature_encoder
from ..policy import (
    Inference,
    PolicyConfig,
    PolicyNet,
    frozen,
    inference_conv,
    load_checkpoint,
    save_checkpoint,
)
from . import common
from .common import latest_checkpoint, require

METRICS = (
    "ppo/policy_loss", "ppo/value_loss", "ppo/entropy", "ppo/approx_kl", "ppo/clip_fraction",
    "ppo/explained_variance", "ppo/learning_rate",
    "rollout/hand_score", "rollout/win_rate", "rollout/deal_in_rate", "rollout/hands",
    "rollout/decisions", "time/decisions_per_second",
    "eval/score_diff", "eval/score_diff_low", "eval/score_diff_high", "eval/win_rate",
    "eval/deal_in_rate",
    "ppo/epochs", "time/learner_decisions_per_second",
    "eval/control_diff", "eval/control_diff_low", "eval/control_diff_high",
)
"""The stable metric names (TensorBoard tags and metrics.csv columns). ``rollout/*`` are per
learner seat and hand since the previous row; ``rollout/decisions`` counts the learner's
decisions trained on so far; ``time/decisions_per_second`` is the rollout speed (decisions of all
seats, network inference and opponents included); ``ppo/epochs`` the passes an update made (fewer
than ``epochs`` when ``target_kl`` stopped it); ``time/learner_decisions_per_second`` the
update's speed (decisions times passes, per second of the update: the learner's device at
work); ``eval/control_diff*`` the score difference minus the control's (``eval_control``)."""

TIMINGS = ("time/decisions_per_second", "time/learner_decisions_per_second")
"""The metrics that are wall-clock speeds: every other one is the same in two runs of the same
seeds (on CPU, same thread count), whatever the backend."""

_HEADER = "the resolved Args of this run (mjenv_agents.train.ppo)"
SELF, POOL = "self", "pool"
BACKENDS = ("processes", "ray")
INIT = "init"
"""``eval_control = "init"``: the network the run started from."""


@dataclass
class Args:
    """Every setting of a PPO run (see the module docstring)."""

    # ---------------------------------------------------------------- plumbing
    seed: int = 1
    """seeds the hands, seatings, opponents, action sampling, minibatches and fresh weights"""
    out: str = "runs/ppo"
    device: str = "cpu"
    """the learner's device: ``cpu``, ``cuda`` (``cuda:N``; an error where torch sees no GPU)
    or ``auto`` (the GPU when there is one); the in-process rollout infers on it too"""
    threads: int = 0
    """torch CPU threads (0: torch's default)"""
    update_threads: int = 0
    """torch CPU threads of the update alone (0: with more than one rollout worker, as many as
    there are workers, at most the cores this process may use: the workers wait while the
    learner updates, so the cores they play on are free then (or, on a cluster, the learner's
    machine is idle anyway); with one, ``threads``). The weights depend on it (torch sums in
    another order on more threads): set it for the same weights on machines with fewer cores."""
    log_interval: int = 1
    """updates between metric rows"""
    checkpoint_interval: int = 10
    """updates between checkpoints (and restarts of the random streams)"""
    eval_interval: int = 0
    """updates between arena evaluations (0: only after the last update)"""
    eval_deals: int = 100
    eval_opponent: str = "greedy"
    eval_seed: int = 2024
    eval_workers: int = 1
    eval_records: str = ""
    """the evaluation games whose records are kept (the arena's ``--records``: all, won,
    penalized, sample:N or a comma-separated union; empty: none)"""
    eval_control: str = ""
    """the control of the learning curve's paired estimator: ``init`` (the starting network),
    an agent spec, or empty (none); it plays the evaluation deals once, and every point also
    reports ``eval/control_diff``, its score difference minus the control's, deal by deal"""
    rollout_workers: int = 1
    """workers that play the hands (1 with ``processes``: in this process; more: each plays
    ``games`` hands with its own random streams, the learner's weights sent before every
    collection)"""
    backend: str = "processes"
    """where the rollout workers run: ``processes`` (on this machine) or ``ray`` (Ray actors:
    a local Ray, or the cluster at ``ray_address``); the same seeds give the same run"""
    ray_address: str = ""
    """the Ray cluster to join (``auto``, ``ray://HOST:10001``, ``HOST:6379``); empty: a Ray
    already initialized in this process, else a local one started with ``rollout_workers``
    CPUs and shut down at the end"""

    # ---------------------------------------------------------------- algorithm
    rules: str = "mcr"
    init: str = ""
    """the checkpoint to start from (e.g. behaviour cloning's ``final.pt``); empty: fresh"""
    channels: int = 64
    """fresh PolicyNet width (ignored with ``init``)"""
    blocks: int = 4
    features: str = "none"
    """fresh PolicyNet's added planes (``none``, ``shanten-v1``, ``shanten-v1+rule``,
    ``shanten-v1+lookahead``; ignored with ``init``)"""
    updates: int = 100
    games: int = 32
    """hands in play at once (the inference batch)"""
    decisions_per_update: int = 2048
    opponents: tuple[str, ...] = (SELF, POOL, "greedy")
    opponent_weights: tuple[float, ...] = (0.5, 0.3, 0.2)
    pool_interval: int = 10
    pool_size: int = 8
    learning_rate: float = 1e-4
    anneal_lr: bool = False
    gamma: float = 1.0
    gae_lambda: float = 0.95
    clip_coef: float = 0.2
    epochs: int = 4
    minibatch_size: int = 256
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    reward_scale: float = 0.02
    target_kl: float = 0.0
    """stop an update's epochs early once the approximate KL exceeds it (0: never)"""
    value_warmup: int = 0
    """first updates that train only the value head (a cloned network starts without one)"""

    def __post_init__(self) -> None:
        common.check_types(self)
        for name in ("log_interval", "checkpoint_interval", "eval_deals", "eval_workers",
                     "rollout_workers",
                     "channels", "updates", "games", "decisions_per_update", "pool_interval",
                     "pool_size", "epochs", "minibatch_size"):
            require(self, getattr(self, name) >= 1, name, ">= 1")
        for name in ("seed", "threads", "update_threads", "eval_interval", "eval_seed", "blocks",
                     "value_warmup"):
            require(self, getattr(self, name) >= 0, name, ">= 0")
        for name in ("learning_rate", "clip_coef", "reward_scale"):
            require(self, getattr(self, name) > 0, name, "> 0")
        for name in ("gamma", "gae_lambda"):
            require(self, 0 <= getattr(self, name) <= 1, name, "in [0, 1]")
        for name in ("ent_coef", "vf_coef", "max_grad_norm", "target_kl"):
            require(self, getattr(self, name) >= 0, name, ">= 0")
        require(self, self.rules in ("mcr", "botzone"), "rules", "'mcr' or 'botzone'")
        require(self, common.device_ok(self.device), "device", common.DEVICES)
        require(self, self.backend in BACKENDS, "backend", " or ".join(map(repr, BACKENDS)))
        require(self, not self.ray_address or self.backend == "ray", "ray_address",
                "empty unless backend = 'ray'")
        require(self, len(self.opponents) >= 1, "opponents", "a non-empty list")
        require(self, records_ok(self.eval_records), "eval_records", RECORDS)
        require(self, len(self.opponent_weights) == len(self.opponents)
                and all(w >= 0 for w in self.opponent_weights)
                and sum(self.opponent_weights) > 0, "opponent_weights",
                f"{len(self.opponents)} non-negative weights, not all zero")
        from mjenv.agent import parse_spec

        for spec in self.opponents:
            if spec not in (SELF, POOL):
                parse_spec(spec)  # a malformed spec fails now
        if self.eval_control not in ("", INIT):
            parse_spec(self.eval_control)


def args_from_dict(data: Any, where: str = "config") -> Args:
    return common.args_from_dict(Args, data, where)


def parse_args(argv: Sequence[str] | None = None) -> Args:
    return common.parse_command_line(Args, "python -m mjenv_agents.train.ppo",
                                     "PPO self-play against an opponent pool.", argv)


# ------------------------------------------------------------------ rollouts

@dataclass
class Batch:
    """One update's training data (aligned rows, one per learner decision)."""

    obs: torch.Tensor
    mask: torch.Tensor
    action: torch.Tensor
    logprob: torch.Tensor
    value: torch.Tensor
    advantage: torch.Tensor
    ret: torch.Tensor

    def __len__(self) -> int:
        return len(self.action)

    def to(self, device: torch.device) -> Batch:
        """The batch on ``device`` (moved once per update, not once per minibatch)."""
        return Batch(*(getattr(self, f.name).to(device) for f in fields(Batch)))


@dataclass
class _Hand:
    """A hand in play: its table, who plays each seat, and the learner seats' trajectories."""

    slot: GameSlot
    """the table (``mjenv.vector.slot.GameSlot``: ``raw_env``'s game without PettingZoo's
    bookkeeping, the same hand from the same seed), reused by the next hand of its slot"""
    players: list[Any]
    """per seat: SELF (the learner), a PolicyNet (a pool snapshot) or an Agent"""
    steps: dict[int, list[tuple[np.ndarray, np.ndarray, int, float, float]]] = field(
        default_factory=dict)
    """learner seat -> (obs, mask, action, logprob, value) per decision"""


@dataclass
class _Harvest:
    """What one collection has taken so far from the hands that ended."""

    trajectories: list[list[tuple[np.ndarray, np.ndarray, int, float, float]]] = field(
        default_factory=list)
    rewards: list[float] = field(default_factory=list)
    """per trajectory: the hand's payment to its seat, times ``reward_scale``"""
    decisions: int = 0


class Rollout:
    """Plays hands for the learner and yields training data (see the module docstring).

    Each of the ``games`` slots keeps one table (:class:`mjenv.vector.slot.GameSlot`, the game
    of ``raw_env(rules=rules)``: ``start(seed)`` deals what ``raw_env.reset(seed=seed)`` deals)
    and its encoders: the agents' seats read ``mjenv-v1``, a network's seats the encoder of its
    feature set (``mjenv-v1+shanten`` for ``shanten-v1``: the env computes the analysis planes,
    with its memo, instead of :func:`~mjenv_agents.features.augment`; the same input)."""

    def __init__(self, args: Args, net: PolicyNet, pool: list[PolicyNet], start: int,
                 stream: int = 0) -> None:
        self.args = args
        self.net = net
        self.pool = pool
        self.stream = stream
        """0: a single rollout (in this process, or one worker); 1..W: worker w of W"""
        self.weights = np.asarray(args.opponent_weights, dtype=float)
        self.weights /= self.weights.sum()
        self.agents: dict[tuple[str, int, int], Any] = {}
        self.options = EnvOptions(rules=args.rules)
        self.tables: list[GameSlot] = []
        """per slot: its GameSlot (made on first use, kept across hands and restarts)"""
        self.encoders: list[dict[str, SeatEncoder]] = []
        """per slot: feature set -> the encoder of the networks with it"""
        self.stepped = 0
        """decisions of all seats played (for the throughput metric)"""
        self.inference: dict[PolicyNet, Inference] = {}
        """a network of this collection (the learner, a pool snapshot) -> its :func:`frozen`
        copy (modules hash by identity)"""
        self.restart(start)

    def restart(self, start: int) -> None:
        """Begin the segment at update ``start``: random streams from ``(seed, start,
        stream)``, fresh hands, no statistics; what a run resumed at ``start`` begins with."""
        extra = [self.stream] if self.stream else []
        self.rng = np.random.default_rng([self.args.seed, start, *extra])
        self.generator = torch.Generator().manual_seed(int(np.random.SeedSequence(
            [self.args.seed, start, 1, *extra]).generate_state(1)[0]))
        self.agents.clear()  # built afresh, as in a resumed run
        self.hands = [self._new_hand(slot) for slot in range(self.args.games)]
        self.stats: list[tuple[float, int, int]] = []  # (payment, win, deal-in) per seat-hand

    def _opponent(self, spec: str, slot: int, seat: int) -> Any:
        """The agent ``spec`` for ``seat`` of the hand in ``slot`` (created once, reset for
        every hand: agents may keep per-hand state, so hands in play never share one)."""
        from mjenv.agent import make_agent

        key = (spec, slot, seat)
        agent = self.agents.get(key)
        if agent is None:
            agent = self.agents[key] = make_agent(spec)
        return agent

    def _table(self, slot: int) -> GameSlot:
        """The GameSlot of ``slot`` (encoders memoize by content: a result never depends on
        what they hold, so tables outlive hands and restarts)."""
        while len(self.tables) <= slot:
            self.tables.append(GameSlot(self.options))
            self.encoders.append({})
        return self.tables[slot]

    def _encoder(self, slot: int, net: PolicyNet) -> SeatEncoder:
        """The encoder of ``net``'s observations at ``slot``: its feature set's
        (:func:`~mjenv_agents.features.feature_encoder`), one per slot and feature set."""
        features = net.config.features
        encoder = self.encoders[slot].get(features)
        if encoder is None:
            encoder = self.encoders[slot][features] = make_encoder(
                feature_encoder(features), self.options.rule_config)
        return encoder

    def _new_hand(self, slot: int) -> _Hand:
        kinds = self.args.opponents
        kind = kinds[int(self.rng.choice(len(kinds), p=self.weights))]
        if kind == POOL and not self.pool:
            kind = SELF
        hand_seed = int(self.rng.integers(2**63))
        learner = int(self.rng.integers(4))
        players: list[Any] = []
        snapshot = self.pool[int(self.rng.integers(len(self.pool)))] if kind == POOL else None
        for seat in range(4):
            if kind == SELF or seat == learner:
                players.append(SELF)
            elif snapshot is not None:
                players.append(snapshot)
            else:
                agent = self._opponent(kind, slot, seat)
                agent.reset(seat, int(self.rng.integers(2**63)))
                players.append(agent)
        table = self._table(slot)
        table.start(hand_seed)  # the hand raw_env(rules=rules).reset(seed=hand_seed) deals
        return _Hand(table, players, {s: [] for s in range(4) if players[s] is SELF})

    def collect(self) -> Batch:
        """Play until ``decisions_per_update`` learner decisions of finished hands are in."""
        self._freeze()
        harvest = _Harvest()
        while harvest.decisions < self.args.decisions_per_update:
            self._tick(harvest)
        return self._batch(harvest.trajectories, harvest.rewards)

    def _freeze(self) -> None:
        """Frozen copies of the networks for this collection: the learner's afresh (its
        weights change between collections), the pool's kept while the pool keeps them."""
        pool = {net: self.inference[net] if net in self.inference else frozen(net)
                for net in self.pool}
        self.inference = pool | {self.net: frozen(self.net)}

    def _tick(self, harvest: _Harvest) -> None:
        """Every hand in play on to its next network decision (the agents' seats play as
        they come), then those decisions, one batch per network."""
        asks: dict[int, list[tuple[int, int]]] = {}  # net id -> (slot, seat) to ask it
        nets: dict[int, PolicyNet] = {}
        for i in range(len(self.hands)):
            while True:
                table = self.hands[i].slot
                seat = table.seat
                player = self.hands[i].players[seat]
                if player is SELF or isinstance(player, PolicyNet):
                    break
                o = table.observe(seat)
                self._play(i, int(player.act(o["observation"], o["action_mask"])), harvest)
            net: PolicyNet = player if isinstance(player, PolicyNet) else self.net
            nets[id(net)] = net
            asks.setdefault(id(net), []).append((i, seat))
        chosen: list[tuple[int, int]] = []
        for key, items in asks.items():
            net = nets[key]
            obs_np, mask_np = self._rows(net, items)
            actions, logprobs, values = self._sample(net, obs_np, mask_np)
            for j, (i, seat) in enumerate(items):
                if net is self.net:
                    self.hands[i].steps[seat].append((obs_np[j], mask_np[j], actions[j],
                                                      logprobs[j], values[j]))
                chosen.append((i, actions[j]))
        for i, action in sorted(chosen):
            self._play(i, action, harvest)

    def _rows(self, net: PolicyNet, asks: list[tuple[int, int]],
              ) -> tuple[np.ndarray, np.ndarray]:
        """The network input and legal mask of each (slot, seat) in ``asks``, written by the
        slots' encoders straight into one new batch (its rows are kept in trajectories)."""
        masks = np.empty((len(asks), NUM_ACTIONS), dtype=np.int8)
        encoder = self._encoder(asks[0][0], net)
        obs = np.empty((len(asks), *encoder.shape), dtype=encoder.dtype)
        for j, (i, seat) in enumerate(asks):
            table = self.hands[i].slot
            masks[j] = table.mask(seat)
            self._encoder(i, net).encode_into(table.view(seat), masks[j], obs[j])
        legal = masks != 0
        return net.prepare(obs, legal), legal

    def _play(self, i: int, action: int, harvest: _Harvest) -> None:
        """``action`` in the hand of slot ``i``; when that ends the hand, its learner seats'
        trajectories and statistics are taken and a new hand is dealt in the slot."""
        hand = self.hands[i]
        end = hand.slot.step(action)
        self.stepped += 1
        if end is None:
            return
        result = end.result
        for s, steps in hand.steps.items():
            if steps:
                harvest.trajectories.append(steps)
                harvest.rewards.append(result.payments[s] * self.args.reward_scale)
                harvest.decisions += len(steps)
            self.stats.append((float(result.payments[s]), int(result.winner == s),
                               int(result.from_seat == s and not result.self_drawn
                                   and result.winner is not None)))
        self.hands[i] = self._new_hand(i)

    @torch.inference_mode()
    def _sample(self, net: PolicyNet, obs_np: np.ndarray, mask_np: np.ndarray,
                ) -> tuple[list[int], list[float], list[float]]:
        device = next(net.parameters()).device
        forward = self.inference.get(net, net)  # a snapshot of a pool since replaced: as is
        with inference_conv(len(obs_np), device):
            logits, value = forward(torch.from_numpy(obs_np).to(device),
                                    torch.from_numpy(mask_np).to(device))
        logp = torch.log_softmax(logits.float(), dim=1).cpu()
        action = sample_gumbel(logp, self.generator)
        taken = logp.gather(1, action[:, None]).squeeze(1)
        return action.tolist(), taken.tolist(), value.float().cpu().tolist()

    def _batch(self, trajectories: list[list[tuple[np.ndarray, np.ndarray, int, float, float]]],
               rewards: list[float]) -> Batch:
        """Flatten finished trajectories, with GAE advantages and returns."""
        a = self.args
        advantages: list[float] = []
        for steps, reward in zip(trajectories, rewards, strict=True):
            values = [s[4] for s in steps]
            adv = [0.0] * len(steps)
            last = 0.0
            for t in reversed(range(len(steps))):
                next_value = values[t + 1] if t + 1 < len(steps) else 0.0
                r = reward if t == len(steps) - 1 else 0.0
                delta = r + a.gamma * next_value - values[t]
                last = delta + a.gamma * a.gae_lambda * last
                adv[t] = last
            advantages.extend(adv)
        flat = [s for steps in trajectories for s in steps]
        value = torch.tensor([s[4] for s in flat], dtype=torch.float32)
        advantage = torch.tensor(advantages, dtype=torch.float32)
        return Batch(obs=torch.from_numpy(np.stack([s[0] for s in flat])),
                     mask=torch.from_numpy(np.stack([s[1] for s in flat])),
                     action=torch.tensor([s[2] for s in flat], dtype=torch.int64),
                     logprob=torch.tensor([s[3] for s in flat], dtype=torch.float32),
                     value=value, advantage=advantage, ret=advantage + value)

    def set_pool(self, paths: list[Path]) -> None:
        self.pool = _load_pool(paths, next(self.net.parameters()).device)

    def take_stats(self) -> dict[str, float]:
        """rollout/* metrics since the last call."""
        stats, self.stats = self.stats, []
        return _stats_metrics(stats)

    def close(self) -> None:
        pass


def sample_gumbel(logp: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One action per row of log-probabilities ``logp`` (B, A), drawn as the argmax of
    ``logp`` plus Gumbel noise from ``generator``: the softmax's distribution exactly, at about
    half the cost of ``torch.multinomial`` at PPO's batch sizes. Uniforms are kept above 0, so
    the noise is finite and an action of probability 0 is never drawn."""
    uniform = torch.rand(logp.shape, generator=generator)
    uniform.clamp_(min=torch.finfo(torch.float32).tiny)
    return (logp - uniform.log_().neg_().log_()).argmax(dim=1)


def _stats_metrics(stats: list[tuple[float, int, int]]) -> dict[str, float]:
    if not stats:
        return {}
    n = len(stats)
    return {"rollout/hand_score": sum(s[0] for s in stats) / n,
            "rollout/win_rate": sum(s[1] for s in stats) / n,
            "rollout/deal_in_rate": sum(s[2] for s in stats) / n,
            "rollout/hands": float(n)}


Collected = tuple[Batch, list[tuple[float, int, int]], int]
"""What a rollout worker returns per collection: its batch, its rollout statistics (payment,
win, deal-in per learner seat and hand) and how many decisions of all seats it played."""


def worker_share(args: Args) -> int:
    """The learner decisions each of ``rollout_workers`` workers collects per update."""
    return -(-args.decisions_per_update // args.rollout_workers)  # ceil


def worker_stream(args: Args, index: int) -> int:
    """The random stream of worker ``index`` (0-based): 0 for a single worker, which then
    plays exactly what the in-process rollout would, else ``index + 1``."""
    return 0 if args.rollout_workers == 1 else index + 1


def net_from_state(config: dict[str, Any], state: dict[str, torch.Tensor]) -> PolicyNet:
    """A CPU network in eval mode from a config (``asdict(PolicyConfig)``) and weights."""
    net = PolicyNet(PolicyConfig.from_dict(config))
    net.load_state_dict(state)
    net.eval()
    return net


class WorkerRollout:
    """What a rollout worker holds between collections, whichever backend runs it (a process,
    a Ray actor): a CPU copy of the learner (weights replaced before each collection), the pool
    snapshots (rebuilt only when the pool changes) and the :class:`Rollout` of the current
    segment, collecting :func:`worker_share` decisions with stream :func:`worker_stream`."""

    def __init__(self, args: Args, config: dict[str, Any], index: int, start: int,
                 pool_keys: list[str], load_pool: Callable[[], list[PolicyNet]]) -> None:
        torch.set_num_threads(1)  # W workers on W cores, not W x cores threads
        self.net = PolicyNet(PolicyConfig.from_dict(config))
        self.net.eval()
        self.pool_keys = pool_keys
        self.rollout = Rollout(replace(args, decisions_per_update=worker_share(args)), self.net,
                               load_pool(), start, worker_stream(args, index))

    def use_pool(self, pool_keys: list[str], load_pool: Callable[[], list[PolicyNet]]) -> None:
        """The pool of snapshots named ``pool_keys`` (``load_pool()`` builds it, only when
        the names changed)."""
        if pool_keys != self.pool_keys:
            self.rollout.pool = load_pool()
            self.pool_keys = pool_keys

    def restart(self, start: int, pool_keys: list[str],
                load_pool: Callable[[], list[PolicyNet]]) -> None:
        """Begin the segment at ``start`` with the pool it starts with (the first hands
        draw their snapshots from it, as in a run resumed there)."""
        self.use_pool(pool_keys, load_pool)
        self.rollout.restart(start)

    def collect(self, state: dict[str, torch.Tensor], pool_keys: list[str],
                load_pool: Callable[[], list[PolicyNet]]) -> Collected:
        """Load the learner's weights and the pool, and collect."""
        self.net.load_state_dict(state)
        self.use_pool(pool_keys, load_pool)
        stepped = self.rollout.stepped
        batch = self.rollout.collect()
        stats, self.rollout.stats = self.rollout.stats, []
        return batch, stats, self.rollout.stepped - stepped


def _worker_main(conn: Any, args: Args, config: dict[str, Any], index: int, start: int,
                 pool: list[Path], parent: int) -> None:
    """A rollout worker process: a :class:`WorkerRollout` serving the parent's messages
    (``("restart", start, pool paths)``, ``("collect", weights, pool paths)``, ``None`` to
    end); it dies with ``parent`` (mjenv.procs) and leaves Ctrl-C to it."""
    die_with_parent(parent)
    ignore_interrupts()
    worker = WorkerRollout(args, config, index, start, [str(p) for p in pool],
                           functools.partial(_load_pool, pool))
    gc.freeze()  # what the setup made lives as long as the worker: no collection scans it again
    while True:
        message = conn.recv()
        if message is None:
            return
        kind, value, paths = message
        keys = [str(p) for p in paths]
        load = functools.partial(_load_pool, paths)
        if kind == "restart":
            worker.restart(value, keys, load)
        else:
            conn.send(worker.collect(value, keys, load))


def join_collected(parts: Sequence[Collected], stats: list[tuple[float, int, int]]
                   ) -> tuple[Batch, int]:
    """The workers' batches joined in worker order (so a run is reproducible whatever order
    they finished in), their statistics appended to ``stats``; returns the batch and the
    decisions played."""
    stepped = 0
    for _, part_stats, part_stepped in parts:
        stats.extend(part_stats)
        stepped += part_stepped
    batch = Batch(*(torch.cat([getattr(b, f.name) for b, _, _ in parts])
                    for f in fields(Batch)))
    return batch, stepped


def cpu_state(net: PolicyNet) -> dict[str, torch.Tensor]:
    """The learner's weights as the workers load them (on the CPU, detached)."""
    return {k: v.detach().cpu() for k, v in net.state_dict().items()}


class RolloutWorkers:
    """``rollout_workers`` processes, each a :class:`WorkerRollout` with its own random
    streams, the learner's weights sent before every collection; their batches are
    concatenated in worker order (deterministic). The processes live as long as the run:
    :meth:`restart` begins a segment on them."""

    def __init__(self, args: Args, net: PolicyNet, pool: list[Path], start: int) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.net = net
        self.pool_paths = pool
        self.stepped = 0
        self.stats: list[tuple[float, int, int]] = []
        self.connections = []
        self.processes = []
        config = asdict(net.config)
        for w in range(args.rollout_workers):
            mine, theirs = context.Pipe()
            process = context.Process(target=_worker_main, daemon=True,
                                      args=(theirs, args, config, w, start, pool, os.getpid()))
            process.start()
            self.connections.append(mine)
            self.processes.append(process)

    def restart(self, start: int) -> None:
        for connection in self.connections:
            connection.send(("restart", start, self.pool_paths))
        self.stats = []

    def set_pool(self, paths: list[Path]) -> None:
        self.pool_paths = paths

    def collect(self) -> Batch:
        state = cpu_state(self.net)
        for connection in self.connections:
            connection.send(("collect", state, self.pool_paths))
        batch, stepped = join_collected([c.recv() for c in self.connections], self.stats)
        self.stepped += stepped
        return batch

    def take_stats(self) -> dict[str, float]:
        stats, self.stats = self.stats, []
        return _stats_metrics(stats)

    def close(self) -> None:
        for connection in self.connections:
            with contextlib.suppress(OSError):  # the worker is gone already
                connection.send(None)
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()


# ------------------------------------------------------------------ the update

def masked_entropy(logits: torch.Tensor) -> torch.Tensor:
    """Entropy of each row's softmax; masked actions (probability exactly 0) add nothing."""
    logp = torch.log_softmax(logits, dim=1)
    p = logp.exp()
    return -(torch.where(p > 0, p * logp, torch.zeros_like(p))).sum(dim=1)


def ppo_update(net: PolicyNet, optimizer: torch.optim.Optimizer, batch: Batch, args: Args,
               generator: torch.Generator, value_only: bool = False) -> dict[str, float]:
    """``args.epochs`` passes of clipped PPO over ``batch``; returns the ppo/* metrics.
    ``value_only`` trains the value head alone (the policy terms are computed, not used)."""
    device = next(net.parameters()).device
    n = len(batch)
    data = batch.to(device)
    sums = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0,
            "clip_fraction": 0.0}
    steps = 0
    epochs = 0
    net.train()
    for _ in range(args.epochs):
        # the order is drawn on the CPU generator: the same minibatches on every device
        order = torch.randperm(n, generator=generator).to(device)
        epoch_kl = 0.0
        epoch_steps = 0
        epochs += 1
        for start in range(0, n, args.minibatch_size):
            rows = order[start:start + args.minibatch_size]
            obs, mask, action = data.obs[rows], data.mask[rows], data.action[rows]
            old_logp, adv, ret = data.logprob[rows], data.advantage[rows], data.ret[rows]
            if len(rows) > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            logits, value = net(obs, mask)
            logp = torch.log_softmax(logits, dim=1).gather(1, action[:, None]).squeeze(1)
            log_ratio = logp - old_logp
            ratio = log_ratio.exp()
            pg_loss = torch.max(-adv * ratio,
                                -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
            v_loss = 0.5 * (value - ret).pow(2).mean()
            entropy = masked_entropy(logits).mean()
            loss = args.vf_coef * v_loss
            if not value_only:
                loss = loss + pg_loss - args.ent_coef * entropy
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                kl = float(((ratio - 1) - log_ratio).mean())
                clipped = float(((ratio - 1).abs() > args.clip_coef).float().mean())
            for key, v in (("policy_loss", float(pg_loss.detach())),
                           ("value_loss", float(v_loss.detach())),
                           ("entropy", float(entropy.detach())), ("approx_kl", kl),
                           ("clip_fraction", clipped)):
                sums[key] += v
            steps += 1
            epoch_kl += kl
            epoch_steps += 1
        if args.target_kl and epoch_kl / epoch_steps > args.target_kl:
            break
    var = float(batch.ret.var()) if n > 1 else 0.0
    explained = 1 - float((batch.ret - batch.value).var()) / var if var > 0 else 0.0
    out = {f"ppo/{k}": v / steps for k, v in sums.items()}
    out["ppo/explained_variance"] = explained
    out["ppo/epochs"] = float(epochs)
    return out


# ------------------------------------------------------------------ evaluation

RECORDS = "all, won, penalized, sample:N, a comma-separated union of them, or empty (none)"
"""What ``eval_records`` (and ``[evaluate] records``) may be: the arena's ``--records``."""


def records_ok(text: str) -> bool:
    """Whether ``text`` is empty or an arena record selection (mjenv.arena.records)."""
    from mjenv.arena.records import parse_records

    try:
        return not text or bool(parse_records(text))
    except ValueError:
        return False


def arena_rows(folder: Path) -> list[dict[str, Any]]:
    """The rows (hands.csv) of a finished arena run, typed as mjenv.arena.stats reads them."""
    import csv

    from mjenv.arena.store import INT_FIELDS

    with open(folder / "hands.csv", newline="", encoding="utf-8") as fh:
        return [{k: int(v) if k in INT_FIELDS else v for k, v in row.items()}
                for row in csv.DictReader(fh)]


def control_spec(args: Args) -> str:
    """The agent spec of ``eval_control`` (``init``: the checkpoint the run started from, or
    its fresh network as saved in ``snapshots/update_0.pt``)."""
    if args.eval_control != INIT:
        return args.eval_control
    start = Path(args.init) if args.init else Path(args.out) / "snapshots" / "update_0.pt"
    return f"policy:{start}"


def _arena(args: Args, spec: str, name: str, folder: Path, records: str | None = None,
           pool: WorkerPool | None = None) -> dict[str, Any]:
    """``spec`` 1-vs-3 against ``eval_opponent`` on the evaluation deals (resumes a partial
    run in ``folder``), on ``pool``'s workers when one is given."""
    from mjenv.arena.config import ArenaConfig

    config = ArenaConfig(agents=(spec, args.eval_opponent), names=(name, args.eval_opponent),
                         deals=args.eval_deals, seed=args.eval_seed, rules=args.rules)
    return run_arena(config, folder, workers=args.eval_workers, progress=False,
                     records=records, pool=pool)


def evaluate(args: Args, snapshot: Path, update: int,
             pool: WorkerPool | None = None) -> dict[str, float]:
    """The arena run of ``snapshot`` against ``eval_opponent`` (resumes a partial one), and
    with ``eval_control`` its difference from the control's run on the same deals (played
    once, in ``eval/control/``, and reused by every point); on ``pool``'s arena workers when
    one is given (:func:`eval_pool`)."""
    from mjenv.arena.stats import control_difference

    folder = Path(args.out) / "eval" / f"update_{update}"
    results = _arena(args, f"policy:{snapshot}", "learner", folder, args.eval_records or None,
                     pool)
    diff = results["score_difference"]
    learner = results["agents"]["learner"]
    scores = {"eval/score_diff": diff["mean"], "eval/score_diff_low": diff["low"],
              "eval/score_diff_high": diff["high"], "eval/win_rate": learner["win_rate"],
              "eval/deal_in_rate": learner["deal_in_rate"]}
    if args.eval_control:
        control = Path(args.out) / "eval" / "control"
        _arena(args, control_spec(args), "control", control, pool=pool)
        paired = control_difference(arena_rows(folder), ("learner", args.eval_opponent),
                                    arena_rows(control), ("control", args.eval_opponent))
        scores.update({"eval/control_diff": paired["mean"],
                       "eval/control_diff_low": paired["low"],
                       "eval/control_diff_high": paired["high"]})
    return scores


def plot_learning_curve(out: Path, opponent: str, control: str = "") -> Path | None:
    """``learning_curve.png`` from the eval rows of metrics.csv, each point with its 95%
    interval as an error bar; with a control, a second panel of the paired estimate (the
    score difference minus the control's), whose narrower bars are the ones that rank the
    snapshots. None without matplotlib."""
    import csv

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    with open(out / "metrics.csv", newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r.get("eval/score_diff")]
    if not rows:
        return None
    panels = [("eval/score_diff", f"learner vs 3x {opponent}",
               "duplicate score difference per hand")]
    if control and all(r.get("eval/control_diff") for r in rows):
        panels.append(("eval/control_diff", f"learner minus control ({control})",
                       "score difference minus the control's"))
    fig, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels), 4), squeeze=False)
    x = [int(r["step"]) for r in rows]
    for ax, (key, label, ylabel) in zip(axes[0], panels, strict=True):
        mean = [float(r[key]) for r in rows]
        low = [m - float(r[f"{key}_low"]) for m, r in zip(mean, rows, strict=True)]
        high = [float(r[f"{key}_high"]) - m for m, r in zip(mean, rows, strict=True)]
        ax.errorbar(x, mean, yerr=[low, high], marker="o", capsize=4, label=label)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xlabel("PPO update")
        ax.set_ylabel(ylabel)
        ax.legend(title="mean, 95% CI (clustered by deal)")
    axes[0][0].set_title("Learning curve (arena, duplicate deals)")
    if len(panels) > 1:
        axes[0][1].set_title("Paired with the control on the same deals")
    fig.tight_layout()
    path = out / "learning_curve.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# ------------------------------------------------------------------ the run

def make_net(args: Args) -> PolicyNet:
    if args.init:
        net, _ = load_checkpoint(args.init)
        return net
    torch.manual_seed(args.seed)
    return PolicyNet(PolicyConfig.fresh(args.channels, args.blocks, args.features))


def _pool_paths(args: Args, out: Path, update: int) -> list[Path]:
    """The snapshots an update at ``update`` draws opponents from (rebuilt the same way on
    resume): ``init`` and ``snapshots/update_<u>.pt`` for multiples ``u`` of pool_interval,
    the last ``pool_size`` of them."""
    paths = [Path(args.init)] if args.init else []
    paths += [out / "snapshots" / f"update_{u}.pt"
              for u in range(args.pool_interval, update + 1, args.pool_interval)]
    return [p for p in paths[-args.pool_size:] if p.exists()]


def _load_pool(paths: Sequence[Path], device: str | torch.device = "cpu") -> list[PolicyNet]:
    return [load_checkpoint(p, device)[0] for p in paths]


class Collector(Protocol):
    """What the training loop asks of a rollout backend: :class:`Rollout` (in this process),
    :class:`RolloutWorkers` (processes) or :class:`~mjenv_agents.train.ray_rollouts.RayRollouts`
    (Ray actors)."""

    stepped: int
    """decisions of all seats played so far"""

    def collect(self) -> Batch: ...

    def restart(self, start: int) -> None: ...

    def set_pool(self, paths: list[Path]) -> None: ...

    def take_stats(self) -> dict[str, float]: ...

    def close(self) -> None: ...


def make_rollout(args: Args, net: PolicyNet, out: Path, update: int) -> Collector:
    """The rollout of a run resumed at ``update``: in this process, in worker processes or in
    Ray actors (``backend``); :meth:`restart` begins each later segment on it."""
    paths = _pool_paths(args, out, update)
    if args.backend == "ray":
        from .ray_rollouts import RayRollouts

        return RayRollouts(args, net, paths, update)
    if args.rollout_workers > 1:
        return RolloutWorkers(args, net, paths, update)
    return Rollout(args, net, _load_pool(paths, next(net.parameters()).device), update)


def train(args: Args) -> Path:
    """Run (or resume) PPO; returns the path of ``final.pt``. SIGTERM unwinds like Ctrl-C
    (mjenv.procs.sigterm_raises), so the rollout workers, a local Ray among them, are stopped
    however the run ends."""
    device = common.learner_device(args.device)  # a missing GPU fails before anything is written
    if args.threads:
        torch.set_num_threads(args.threads)
    out = common.prepare_folder(args, _HEADER)
    (out / "snapshots").mkdir(exist_ok=True)
    net = make_net(args).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5)
    update = 0
    trained = 0  # learner decisions trained on so far (rollout/decisions)
    resume = latest_checkpoint(out)
    if resume is not None:
        loaded, extra = load_checkpoint(resume, device)
        net.load_state_dict(loaded.state_dict())
        optimizer.load_state_dict(extra["optimizer"])
        update = int(extra["update"])
        trained = int(extra.get("decisions", 0))
        print(f"resuming from {resume} at update {update}")
        if resume.name == "final.pt":
            return resume
    if device.type != "cpu":
        print(f"learner on {device} ({torch.cuda.get_device_name(device)})"
              if device.type == "cuda" else f"learner on {device}")
    if update == 0 and args.eval_control == INIT and not args.init:
        save_checkpoint(out / "snapshots" / "update_0.pt", net, {"update": 0, "stage": "ppo"})
    logger = common.MetricLogger(out, update, METRICS)
    rollout: Collector | None = None
    generator = torch.Generator()
    with contextlib.ExitStack() as stack:
        stack.callback(logger.close)
        if args.backend == "ray":
            from .ray_rollouts import ray_session

            stack.enter_context(ray_session(args))
        # after ray.init, whose driver installs a SIGTERM handler that ends the process
        # without unwinding (and aborts it at exit): ours makes SIGTERM a Terminated exception
        stack.enter_context(sigterm_raises())
        stack.callback(lambda: _close(rollout))
        pool = stack.enter_context(eval_pool(args))
        if update == 0 and args.eval_interval:  # the curve's first point: the starting network
            _evaluate_and_log(args, out, net, 0, logger, pool)
        while update < args.updates:
            if rollout is None:
                rollout = make_rollout(args, net, out, update)
                generator = _minibatch_generator(args, update)
            elif update % args.checkpoint_interval == 0:
                rollout.restart(update)  # the streams a run resumed here starts with
                generator = _minibatch_generator(args, update)
            lr = args.learning_rate * (1 - update / args.updates if args.anneal_lr else 1.0)
            for group in optimizer.param_groups:
                group["lr"] = lr
            began, stepped = _now(), rollout.stepped
            net.eval()
            batch = rollout.collect()
            rate = (rollout.stepped - stepped) / max(_now() - began, 1e-9)
            began = _now()
            threads = update_threads(args)
            with torch_threads(threads) if threads else contextlib.nullcontext():
                metrics = ppo_update(net, optimizer, batch, args, generator,
                                     value_only=update < args.value_warmup)
            learner_seconds = max(_now() - began, 1e-9)
            update += 1
            trained += len(batch)
            metrics["ppo/learning_rate"] = lr
            metrics["rollout/decisions"] = float(trained)
            metrics["time/decisions_per_second"] = rate
            metrics["time/learner_decisions_per_second"] = (
                len(batch) * metrics["ppo/epochs"] / learner_seconds)
            if update % args.log_interval == 0 or update == args.updates:
                metrics.update(rollout.take_stats())
                logger.log(update, metrics)
                print(f"update {update}/{args.updates}  score/hand "
                      f"{metrics.get('rollout/hand_score', float('nan')):+.2f}  "
                      f"kl {metrics['ppo/approx_kl']:.4f}  "
                      f"{metrics['time/decisions_per_second']:.0f} decisions/s  "
                      f"learner {metrics['time/learner_decisions_per_second']:.0f}/s",
                      flush=True)
            if update % args.pool_interval == 0 or _evaluates(args, update):
                save_checkpoint(out / "snapshots" / f"update_{update}.pt", net,
                                {"update": update, "stage": "ppo"})
                if update % args.pool_interval == 0:
                    rollout.set_pool(_pool_paths(args, out, update))
            if _evaluates(args, update):
                _evaluate_and_log(args, out, net, update, logger, pool)
            if update % args.checkpoint_interval == 0 and update < args.updates:
                _save(out / f"checkpoint_{update}.pt", net, optimizer, update, trained, args)
    final = out / "final.pt"
    _save(final, net, optimizer, update, trained, args)
    return final


def update_threads(args: Args) -> int:
    """The torch threads of an update (:attr:`Args.update_threads`; 0: leave them as they are)."""
    if args.update_threads:
        return args.update_threads
    if args.rollout_workers > 1:
        return min(args.rollout_workers, available_cores())
    return args.threads


def _close(rollout: Collector | None) -> None:
    if rollout is not None:
        rollout.close()


def _minibatch_generator(args: Args, update: int) -> torch.Generator:
    """The minibatch order's stream of the segment starting at ``update``."""
    return torch.Generator().manual_seed(args.seed * 1_000_003 + update)


def eval_pool(args: Args) -> contextlib.AbstractContextManager[WorkerPool | None]:
    """The arena workers every learning-curve point of a run plays on (``eval_workers``
    processes started once, not at each point: each start imports torch again, seconds a
    point); none with one ``eval_workers`` (the points play in this process)."""
    if args.eval_workers <= 1:
        return contextlib.nullcontext()
    return WorkerPool(args.eval_workers)


def _evaluate_and_log(args: Args, out: Path, net: PolicyNet, update: int,
                      logger: common.MetricLogger, pool: WorkerPool | None = None) -> None:
    """Play the network of ``update`` in the arena; log and plot the learning curve."""
    snapshot = out / "snapshots" / f"update_{update}.pt"
    if not snapshot.exists():
        save_checkpoint(snapshot, net, {"update": update, "stage": "ppo"})
    scores = evaluate(args, snapshot, update, pool)
    logger.log(update, scores)
    plot_learning_curve(out, args.eval_opponent, args.eval_control)
    line = (f"update {update}: vs 3x {args.eval_opponent} {scores['eval/score_diff']:+.2f} "
            f"[{scores['eval/score_diff_low']:+.2f}, {scores['eval/score_diff_high']:+.2f}]")
    if "eval/control_diff" in scores:
        line += (f"; minus control {scores['eval/control_diff']:+.2f} "
                 f"[{scores['eval/control_diff_low']:+.2f}, "
                 f"{scores['eval/control_diff_high']:+.2f}]")
    print(line, flush=True)


def _evaluates(args: Args, update: int) -> bool:
    return update == args.updates or bool(args.eval_interval
                                          and update % args.eval_interval == 0)


def _now() -> float:
    return time.perf_counter()


def _save(path: Path, net: PolicyNet, optimizer: torch.optim.Optimizer, update: int,
          decisions: int, args: Args) -> None:
    save_checkpoint(path, net, {"update": update, "decisions": decisions,
                                "optimizer": optimizer.state_dict(), "args": asdict(args),
                                "stage": "ppo"})


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        final = train(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {final} (play it with the agent spec 'policy:{os.fspath(final)}')")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["BACKENDS", "METRICS", "TIMINGS", "Args", "Batch", "Collector", "Rollout",
           "RolloutWorkers", "WorkerRollout", "arena_rows", "control_spec", "evaluate", "main",
           "make_rollout", "masked_entropy", "parse_args", "plot_learning_curve", "ppo_update",
           "train"]
