"""The learner shard: games in which one seat is the learner's and fixed agents play the rest.

Each game is :class:`~mjenv.single_agent.SingleAgentEnv` played from its episode seeds (see
:mod:`mjenv.vector.seeds`): a new episode reseeds as ``SingleAgentEnv.reset(seed=s)`` does
(the learner's seat, the deal's seed and the opponents' seeds drawn in that order from
``numpy.random.default_rng(s)``; a deal that ends before the learner's first decision is dealt
again from the same generator), and a step is ``SingleAgentEnv.step``: the learner's action,
then the opponents until the learner must decide again or the episode ends, the reward being
everything the learner's seat received in between. tests/vector compare the two step for step.

Batching: the opponents' decisions are played in rounds over all the games of the shard still
waiting for the learner's turn; in each round the decisions of one agent object go to it
together (:mod:`mjenv.vector.opponents`).

Auto-reset (``autoreset_mode``, Gymnasium's ``AutoresetMode``): ``next_step``, the step that ends
an episode returns its last observation (mask all zero) and the next step starts the next
episode instead of acting (reward 0, not terminated, the reset's info); ``same_step``, the step
that ends an episode starts the next at once and returns its first observation, the last one
and the last info going into the infos as ``final_obs`` and ``final_info``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from mjenv.actions import NUM_ACTIONS
from mjenv.agent import Agent
from mjenv.encoders import SeatEncoder, make_encoder
from mjenv.mahjong_env import end_info
from mjenv.vector.buffers import Arrays, ArraySpec
from mjenv.vector.opponents import Opponents, OpponentSpec, decide
from mjenv.vector.options import EnvOptions
from mjenv.vector.seeds import episode_seed
from mjenv.vector.shard import Infos, RowWriter
from mjenv.vector.slot import GameSlot, HandEnd, reward_of

NEXT_STEP, SAME_STEP = "next_step", "same_step"
MAX_DEALS = 100
"""Deals tried per episode before giving up (as ``SingleAgentEnv.reset``)."""


def learner_array_specs(options: EnvOptions, observation_dtype: str = "float32",
                        ) -> list[ArraySpec]:
    """The arrays of the learner batch: the learner's observation (float32, or the encoder's
    counts), mask (and oracle planes), its reward, the terminated flags and the actions."""
    specs = [ArraySpec("observation", options.observation_shape(), observation_dtype),
             ArraySpec("action_mask", (NUM_ACTIONS,), "int8")]
    if options.oracle:
        specs.append(ArraySpec("oracle", options.oracle_shape(), "float32"))
    specs += [ArraySpec("reward", (), "float64"), ArraySpec("terminated", (), "bool"),
              ArraySpec("action", (), "int64")]
    return specs


def make_learner_shard(arrays: Arrays, first: int, options: EnvOptions,
                       opponents: Sequence[OpponentSpec], seat: int | None, illegal: str,
                       autoreset: str, opponent_encoder: str | None) -> LearnerShard:
    """The factory a worker calls (picklable by name)."""
    return LearnerShard(arrays, first, options, opponents, seat, illegal, autoreset,
                        opponent_encoder)


class LearnerShard:
    """See the module docstring."""

    def __init__(self, arrays: Arrays, first: int, options: EnvOptions,
                 opponents: Sequence[OpponentSpec], seat: int | None, illegal: str,
                 autoreset: str, opponent_encoder: str | None) -> None:
        self.arrays = arrays
        self.first = first
        self.options = options
        self.fixed_seat = seat
        self.penalize = illegal == "penalize"
        self.same_step = autoreset == SAME_STEP
        n = len(arrays["terminated"])
        self.slots = [GameSlot(options) for _ in range(n)]
        self.opponent_encoders: list[SeatEncoder | None] = [
            None if opponent_encoder in (None, options.encoder)
            else make_encoder(opponent_encoder, slot.rules) for slot in self.slots]
        self.opponents = Opponents(opponents, n)
        self.writer = RowWriter(arrays, make_encoder(options.encoder, options.rule_config))
        self.seed = 0
        self.episodes = [0] * n
        self.learner = [0] * n
        self.rngs: list[np.random.Generator] = [np.random.default_rng(0)] * n
        self.deals = [0] * n
        self.starting = [False] * n
        """Whether the learner has yet to decide in the current deal (a deal over before that
        is dealt again)."""
        self.received = [0.0] * n
        """The learner's rewards since its last decision (``SingleAgentEnv._received``)."""
        self.info: list[dict[str, Any]] = [{} for _ in range(n)]
        """The learner's info now (``raw_env.infos[learner]``: set when a hand ends, cleared
        when the learner acts)."""
        self.needs_reset = [False] * n

    # ---------------------------------------------------------------- episodes
    def _new_episode(self, i: int) -> None:
        rng = self.rngs[i] = np.random.default_rng(
            episode_seed(self.seed, self.first + i, self.episodes[i]))
        self.learner[i] = int(rng.integers(4)) if self.fixed_seat is None else self.fixed_seat
        self.deals[i] = 0
        self.needs_reset[i] = False
        self._deal(i)

    def _deal(self, i: int) -> None:
        if self.deals[i] >= MAX_DEALS:
            raise RuntimeError(f"game {self.first + i}: no deal gave the learner a decision in "
                               f"{MAX_DEALS} tries")
        self.deals[i] += 1
        rng = self.rngs[i]
        self.slots[i].start(int(rng.integers(2**63)))
        self.received[i] = 0.0
        self.info[i] = {}
        self.starting[i] = True
        me = self.learner[i]
        for j in range(3):
            self.opponents.agent(i, j).reset((me + 1 + j) % 4, int(rng.integers(2**63)))

    def _hand_ended(self, i: int, end: HandEnd) -> float:
        """Book a finished hand for the learner: its info; returns its reward."""
        me = self.learner[i]
        self.info[i] = end_info(end.result, me, end.hand)
        return reward_of(self.options.reward, end.result.payments[me])

    # ---------------------------------------------------------------- the opponents
    def _advance(self, active: list[int]) -> None:
        """Play the opponents of the games ``active`` in rounds until the learner must decide
        or the episode is over in each (a deal over before the learner's first decision is
        dealt again)."""
        while active:
            groups: dict[int, tuple[Agent, list[int]]] = {}
            again: list[int] = []
            for i in active:
                slot = self.slots[i]
                if slot.over:
                    if self.starting[i]:
                        self._deal(i)
                        again.append(i)
                    continue
                me = self.learner[i]
                if slot.seat == me:
                    self.starting[i] = False
                    continue
                agent = self.opponents.agent(i, (slot.seat - me - 1) % 4)
                group = groups.get(id(agent))
                if group is None:
                    groups[id(agent)] = (agent, [i])
                else:
                    group[1].append(i)
            for agent, games in groups.values():
                observations, masks = [], []
                for i in games:
                    slot = self.slots[i]
                    mask = slot.mask(slot.seat)
                    encoder = self.opponent_encoders[i] or slot.encoder
                    observations.append(encoder.encode(slot.view(slot.seat), mask))
                    masks.append(mask)
                for i, action in zip(games, decide(agent, observations, masks), strict=True):
                    end = self.slots[i].step(action)  # an illegal opponent action: ValueError
                    if end is not None:
                        self.received[i] += self._hand_ended(i, end)
                    again.append(i)
            active = again

    # ---------------------------------------------------------------- the shard protocol
    def reset(self, seed: int) -> Infos:
        self.seed = seed
        n = len(self.slots)
        for i in range(n):
            self.episodes[i] = 0
            self._new_episode(i)
        self._advance(list(range(n)))
        self.arrays["reward"].fill(0.0)
        self.arrays["terminated"].fill(False)
        infos: Infos = []
        for i in range(n):
            self.writer.write(i, self.slots[i], self.learner[i])
            if self.info[i]:
                infos.append((self.first + i, dict(self.info[i])))
        self.writer.flush()
        return infos

    def step(self, arg: None = None) -> Infos:
        a = self.arrays
        actions = a["action"].tolist()
        masks, rewards, terminated = a["action_mask"], a["reward"], a["terminated"]
        n = len(self.slots)
        before = [0.0] * n
        stepped: list[int] = []
        restarted: list[int] = []
        for i in range(n):
            if self.needs_reset[i]:  # next_step mode: this step starts the next episode
                self.episodes[i] += 1
                self._new_episode(i)
                restarted.append(i)
                continue
            slot = self.slots[i]
            action = actions[i]
            before[i] = self.received[i]
            self.info[i] = {}
            if self.penalize and not (0 <= action < NUM_ACTIONS and masks[i, action]):
                end: HandEnd | None = slot.penalize()  # (the batch warned)
            else:
                end = slot.step(action)
            self.received[i] = 0.0 if end is None else self._hand_ended(i, end)
            stepped.append(i)
        self._advance(stepped + restarted)

        infos: Infos = []
        finished: list[int] = []
        for i in stepped:
            slot = self.slots[i]
            rewards[i] = before[i] + self.received[i]
            self.received[i] = 0.0
            done = slot.over
            terminated[i] = done
            if done and self.same_step:
                infos.append((self.first + i, {"final_obs": self._final_obs(i),
                                               "final_info": dict(self.info[i])}))
                self.episodes[i] += 1
                self._new_episode(i)
                finished.append(i)
                continue
            if done:
                self.needs_reset[i] = True
            self._report(i, infos)
        self._advance(finished)
        for i in finished:
            self._report(i, infos)
        for i in restarted:
            rewards[i] = 0.0
            terminated[i] = False
            self._report(i, infos)
        self.writer.flush()
        return infos

    def _final_obs(self, i: int) -> dict[str, npt.NDArray[Any]]:
        """Game ``i``'s last learner observation, as the batch's rows would hold it."""
        slot, seat = self.slots[i], self.learner[i]
        obs = slot.observe(seat)
        if self.arrays["observation"].dtype == np.uint8:
            counts = slot.encoder.counts(slot.view(seat), obs["action_mask"])
            obs["observation"] = np.frombuffer(counts, dtype=np.uint8).reshape(
                obs["observation"].shape).copy()
        return obs

    def _report(self, i: int, infos: Infos) -> None:
        """Write game ``i``'s learner observation and add its info (when not empty)."""
        self.writer.write(i, self.slots[i], self.learner[i])
        if self.info[i]:
            infos.append((self.first + i, dict(self.info[i])))
