"""The batch's row writer: each game's rows are the seat's observation as ``raw_env`` encodes
it, whatever the order and number of writes between two flushes, staging or not."""

from __future__ import annotations

import numpy as np

from mjenv.actions import NUM_ACTIONS
from mjenv.encoders import make_encoder
from mjenv.vector.buffers import Arrays
from mjenv.vector.options import EnvOptions
from mjenv.vector.shard import RowWriter
from mjenv.vector.slot import GameSlot


def test_rows_written_out_of_order_and_again_keep_the_latest() -> None:
    """Two games, five writes before one flush (more than the two rows the staging holds, a
    game written again after the other): every row is its game's latest observation."""
    options = EnvOptions()
    arrays: Arrays = {"observation": np.full((2, *options.observation_shape()), -1.0, np.float32),
              "action_mask": np.zeros((2, NUM_ACTIONS), np.int8)}
    writer = RowWriter(arrays, make_encoder(options.encoder, options.rule_config))
    slots = [GameSlot(options), GameSlot(options)]
    for k, slot in enumerate(slots):
        slot.start(seed=40 + k)
    writer.write(1, slots[1], slots[1].seat)
    writer.write(0, slots[0], slots[0].seat)
    for _ in range(3):  # game 0 plays on and is written again each time
        slots[0].step(slots[0].legal(slots[0].seat)[0])
        writer.write(0, slots[0], slots[0].seat)
    writer.flush()
    for k, slot in enumerate(slots):
        want = slot.observe(slot.seat)
        assert np.array_equal(arrays["observation"][k], want["observation"]), k
        assert np.array_equal(arrays["action_mask"][k], want["action_mask"]), k
