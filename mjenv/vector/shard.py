"""A shard: consecutive game slots of a batch stepped over their rows of the batch arrays.

The batch (:class:`~mjenv.vector.env.VectorMahjongEnv`) runs one shard in its own process, or
one per worker process (:mod:`mjenv.vector.workers`); either way a shard reads the actions from
its rows of the ``action`` array and writes its rows of the outputs, so the results cannot
depend on how the batch is split. What is not an array (the infos of hands that ended) is
returned, with each game's index in the whole batch.

Per game and step: the seat to act plays its action (the engine checks it); when that ends a
hand the rewards of the four seats are written and the info returned; when it ends the episode
the game is flagged terminated and the slot starts its next episode at once with the next seed
of its stream (:mod:`mjenv.vector.seeds`); then the seat to act now is observed into the rows.
"""

from __future__ import annotations

from typing import Any, Protocol

from mjenv.actions import NUM_ACTIONS
from mjenv.mahjong_env import result_info
from mjenv.vector.buffers import Arrays, ArraySpec
from mjenv.vector.options import EnvOptions
from mjenv.vector.seeds import episode_seed
from mjenv.vector.slot import GameSlot, HandEnd, reward_of

Infos = list[tuple[int, dict[str, Any]]]
"""Per game whose info is not empty: (its index in the batch, the info)."""

_ZERO_MASK = bytes(NUM_ACTIONS)


class Shard(Protocol):
    """What the batch asks of a shard, in this process or in a worker."""

    def reset(self, seed: int) -> Infos: ...

    def step(self, arg: None) -> Infos: ...


def array_specs(options: EnvOptions) -> list[ArraySpec]:
    """The arrays of the multi-agent batch (see :class:`~mjenv.vector.env.Batch`)."""
    specs = [ArraySpec("seat", (), "int8"),
             ArraySpec("observation", options.observation_shape(), "float32"),
             ArraySpec("action_mask", (NUM_ACTIONS,), "int8")]
    if options.oracle:
        specs.append(ArraySpec("oracle", options.oracle_shape(), "float32"))
    specs += [ArraySpec("reward", (4,), "float64"), ArraySpec("terminated", (), "bool"),
              ArraySpec("action", (), "int64")]
    return specs


class RowWriter:
    """Writes one seat's observation, mask and oracle planes into a game's rows; the mask goes
    byte by byte through a flat view (cheaper than numpy indexing for a handful of ones)."""

    def __init__(self, arrays: Arrays) -> None:
        self.obs = arrays["observation"]
        self.masks = arrays["action_mask"]
        self.oracle = arrays.get("oracle")
        self.mask_bytes = memoryview(self.masks.data).cast("B") if self.masks.size else None

    def write(self, i: int, slot: GameSlot, seat: int) -> None:
        """Game ``i``'s rows: ``seat``'s observation now (``raw_env.observe``)."""
        mv = self.mask_bytes
        assert mv is not None
        at = i * NUM_ACTIONS
        mv[at:at + NUM_ACTIONS] = _ZERO_MASK
        for a in slot.legal(seat):
            mv[at + a] = 1
        slot.encoder.encode_into(slot.view(seat), self.masks[i], self.obs[i])
        oracle = self.oracle
        if oracle is not None:
            assert slot.oracle is not None and slot.game is not None
            oracle[i] = slot.oracle.encode(slot.game, seat)


def make_games_shard(arrays: Arrays, first: int, options: EnvOptions,
                     illegal: str) -> GamesShard:
    """The factory a worker calls (picklable by name)."""
    return GamesShard(arrays, first, options, illegal)


class GamesShard:
    """The multi-agent shard: every seat's decision comes from the caller's actions."""

    def __init__(self, arrays: Arrays, first: int, options: EnvOptions, illegal: str) -> None:
        self.arrays = arrays
        self.first = first
        self.options = options
        self.illegal = illegal
        n = len(arrays["seat"])
        self.slots = [GameSlot(options) for _ in range(n)]
        self.episodes = [0] * n
        self.seed = 0
        self.writer = RowWriter(arrays)

    def reset(self, seed: int) -> Infos:
        self.seed = seed
        a = self.arrays
        a["reward"].fill(0.0)
        a["terminated"].fill(False)
        seats = a["seat"]
        for i, slot in enumerate(self.slots):
            self.episodes[i] = 0
            slot.start(episode_seed(seed, self.first + i, 0))
            seats[i] = slot.seat
            self.writer.write(i, slot, slot.seat)
        return []

    def step(self, arg: None = None) -> Infos:
        a = self.arrays
        rewards, terminated, seats = a["reward"], a["terminated"], a["seat"]
        actions = a["action"].tolist()
        masks = a["action_mask"]
        rewards.fill(0.0)
        terminated.fill(False)
        infos: Infos = []
        mode = self.options.reward
        penalize = self.illegal == "penalize"
        write = self.writer.write
        for i, slot in enumerate(self.slots):
            action = actions[i]
            if penalize and not (0 <= action < NUM_ACTIONS and masks[i, action]):
                end: HandEnd | None = slot.penalize()  # (the batch warned: it checked the actions)
            else:
                end = slot.step(action)
            if end is not None:
                infos.append((self.first + i, {"hand": end.hand,
                                               "result": result_info(end.result)}))
                p = end.result.payments
                rewards[i] = (reward_of(mode, p[0]), reward_of(mode, p[1]),
                              reward_of(mode, p[2]), reward_of(mode, p[3]))
                if slot.over:
                    terminated[i] = True
                    self.episodes[i] += 1
                    slot.start(episode_seed(self.seed, self.first + i, self.episodes[i]))
            seats[i] = slot.seat
            write(i, slot, slot.seat)
        return infos
