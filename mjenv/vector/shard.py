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

from typing import Any, Final, Protocol

import numpy as np

from mjenv.actions import NUM_ACTIONS
from mjenv.encoders import SeatEncoder, make_encoder
from mjenv.mahjong_env import result_info
from mjenv.tiles import NUM_KINDS
from mjenv.vector.buffers import Arrays, ArraySpec
from mjenv.vector.options import EnvOptions
from mjenv.vector.prefetch import AHEAD, prefetch, prefetch_items
from mjenv.vector.scaling import counts_to_float
from mjenv.vector.seeds import episode_seed
from mjenv.vector.slot import GameSlot, HandEnd, reward_of

Infos = list[tuple[int, dict[str, Any]]]
"""Per game whose info is not empty: (its index in the batch, the info)."""

_ZERO_MASK = bytes(NUM_ACTIONS)

STAGED_ROWS: Final = 512
"""How many games' counts :class:`RowWriter` holds before it scales them into their rows. The
float32 rows are four times the counts (11.7 KiB a game with ``mjenv-v1``); written a few
hundred games at a time, in long runs, they cost a large batch next to nothing, while written
32 at a time, between the games' steps, they took 4-6 µs a decision at N = 1,024 (a fifth of it;
docs/vector-performance.md). 512 games' counts are 1.5 MB with ``mjenv-v1``."""


SCALE_BLOCK: Final = 32
"""How many staged games :meth:`RowWriter.flush` turns into rows at once. For numpy's way (no C
helper: mjenv.vector.scaling), a block small enough (440 KB of float32 with the analysis
planes) to stay in the core's cache between the cast and the scaling; the C pass writes each
cell once and does not need it, and costs the same in blocks."""


class Shard(Protocol):
    """What the batch asks of a shard, in this process or in a worker."""

    def reset(self, seed: int) -> Infos: ...

    def step(self, arg: None) -> Infos: ...


def array_specs(options: EnvOptions, observation_dtype: str = "float32") -> list[ArraySpec]:
    """The arrays of the multi-agent batch (see :class:`~mjenv.vector.env.Batch`); the
    observation is float32, or the encoder's counts (``observation_dtype="uint8"``)."""
    specs = [ArraySpec("seat", (), "int8"),
             ArraySpec("observation", options.observation_shape(), observation_dtype),
             ArraySpec("action_mask", (NUM_ACTIONS,), "int8")]
    if options.oracle:
        specs.append(ArraySpec("oracle", options.oracle_shape(), "float32"))
    specs += [ArraySpec("reward", (4,), "float64"), ArraySpec("terminated", (), "bool"),
              ArraySpec("action", (), "int64")]
    return specs


class RowWriter:
    """Writes one seat's observation, mask and oracle planes into a game's rows; the mask goes
    byte by byte through a flat view (cheaper than numpy indexing for a handful of ones).

    An encoder whose cells are counts and fixed factors (``count_channels``: every built-in
    encoder but ``ijcai-v1``) has those counts staged here, one byte a cell,
    :data:`STAGED_ROWS` games at a time, and :meth:`flush` turns the staged games' into float32
    at once: one numpy multiply (and one divide, for an encoder with divisors) for a few dozen
    games instead of numpy calls a game, writing the same float32 values (the same uint8 by
    float32 product or quotient, cell by cell). :meth:`write` flushes by itself when the
    staging is full; a shard calls :meth:`flush` after writing its rows and before the rows are
    read. A uint8 observation array (a batch that returns the counts themselves) takes the
    counts straight into its rows: nothing is staged or scaled."""

    def __init__(self, arrays: Arrays, encoder: SeatEncoder) -> None:
        self.obs = arrays["observation"]
        self.masks = arrays["action_mask"]
        self.oracle = arrays.get("oracle")
        self.mask_bytes = memoryview(self.masks.data).cast("B") if self.masks.size else None
        k = encoder.count_channels
        if k not in (0, encoder.shape[0]):
            raise ValueError(f"encoder {encoder.name}: count_channels must be 0 or all "
                             f"{encoder.shape[0]} channels, not {k}")
        self.staged = k * NUM_KINDS  # bytes of counts a game (0: the encoder writes its rows)
        direct = self.obs.dtype == np.uint8
        if direct and not k:
            raise ValueError(f"encoder {encoder.name} has no counts to return (count_channels "
                             f"= 0): its observation is float32 only")
        self.counts = self.obs if direct else np.zeros(
            (min(len(self.obs), STAGED_ROWS) if k else 0, k, NUM_KINDS), dtype=np.uint8)
        self.count_bytes = memoryview(self.counts.data).cast("B") if self.counts.size else None
        self.direct = direct
        """the counts are the observation: each game's go straight into its row"""
        self.staged_rows: list[int] = []
        """the game of each staged row, in staging order"""
        self.scale = encoder.count_scale() if k else None
        self.divisor = encoder.count_divisor() if k else None

    def write(self, i: int, slot: GameSlot, seat: int) -> None:
        """Game ``i``'s rows: ``seat``'s observation now (``raw_env.observe``), the counts part
        once :meth:`flush` has run."""
        mv = self.mask_bytes
        assert mv is not None
        at = i * NUM_ACTIONS
        mv[at:at + NUM_ACTIONS] = _ZERO_MASK
        for a in slot.legal(seat):
            mv[at + a] = 1
        encoder = slot.encoder
        view = slot.view(seat)
        mask = self.masks[i]
        size = self.staged
        cb = self.count_bytes
        if self.direct:
            assert cb is not None
            cb[i * size:(i + 1) * size] = encoder.counts(view, mask)
        elif cb is not None:
            staged = self.staged_rows
            j = len(staged)
            if j == len(self.counts):  # full (a batch smaller than STAGED_ROWS stages fewer)
                self.flush()
                j = 0
            cb[j * size:(j + 1) * size] = encoder.counts(view, mask)
            staged.append(i)
        else:
            encoder.encode_into(view, mask, self.obs[i])
        oracle = self.oracle
        if oracle is not None:
            assert slot.oracle is not None and slot.game is not None
            oracle[i] = slot.oracle.encode(slot.game, seat)

    def flush(self) -> None:
        """Turn the staged counts into their games' observation rows, run by run of consecutive
        games (a whole staging in the multi-agent batch, which writes its games in order; the
        single-learner batch writes some out of order), so a game written twice keeps its
        latest rows."""
        rows = self.staged_rows
        if not rows or self.scale is None:
            return
        start = 0
        for r in range(1, len(rows) + 1):
            if r == len(rows) or rows[r] != rows[r - 1] + 1:
                self._scale_run(start, r, rows[start])
                start = r
        rows.clear()

    def _scale_run(self, start: int, stop: int, first: int) -> None:
        """Staged rows ``start:stop`` into the rows of games ``first`` on, :data:`SCALE_BLOCK`
        games at a time (:data:`SCALE_BLOCK`, :func:`counts_to_float`)."""
        scale, divisor = self.scale, self.divisor
        assert scale is not None
        for at in range(start, stop, SCALE_BLOCK):
            end = min(at + SCALE_BLOCK, stop)
            counts_to_float(self.counts[at:end], scale, divisor,
                            self.obs[first + at - start:first + end - start])


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
        self.working_sets = [slot.working_set for slot in self.slots]
        """Each slot's working set, filled in place by the slot: what :meth:`step` prefetches
        :data:`~mjenv.vector.prefetch.AHEAD` games before it steps that game."""
        self.item_lists = [slot.item_lists for slot in self.slots]
        """Each slot's :attr:`~GameSlot.item_lists`, whose items :meth:`step` prefetches a game
        before it steps that game."""
        self.episodes = [0] * n
        self.seed = 0
        self.writer = RowWriter(arrays, make_encoder(options.encoder, options.rule_config))

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
        self.writer.flush()
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
        writer = self.writer  # (a native call each game: no bound method in a local)
        working_sets, item_lists = self.working_sets, self.item_lists
        n = len(working_sets)
        last = n - AHEAD
        for i in range(min(AHEAD, n)):
            prefetch(working_sets[i])
        for i, slot in enumerate(self.slots):
            if i < last:
                prefetch(working_sets[i + AHEAD])
            if i + 1 < n:  # its lists came with its working set a game ago
                prefetch_items(item_lists[i + 1])
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
            writer.write(i, slot, slot.seat)
        writer.flush()
        return infos
