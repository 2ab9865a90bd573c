"""The batch's row writer: each game's rows are the seat's observation as ``raw_env`` encodes
it, whatever the order and number of writes between two flushes, staging or not."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import numpy.typing as npt
import pytest

from mjenv.actions import NUM_ACTIONS
from mjenv.encoders import make_encoder
from mjenv.encoders.base import ChannelRow, SeatEncoder
from mjenv.engine.seat_view import SeatView
from mjenv.vector.buffers import Arrays
from mjenv.vector.options import EnvOptions
from mjenv.vector.shard import RowWriter
from mjenv.vector.slot import GameSlot


@pytest.mark.parametrize("encoder", ["mjenv-v1", "mjenv-v1+shanten"])
def test_rows_written_out_of_order_and_again_keep_the_latest(encoder: str) -> None:
    """Two games, five writes before one flush (more than the two rows the staging holds, a
    game written again after the other): every row is its game's latest observation (the
    planes' divided channels as the scaled ones)."""
    options = EnvOptions(encoder=encoder)
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


class _Partial(SeatEncoder):
    """An encoder claiming counts for only some of its channels."""

    name: ClassVar[str] = "partial-counts"
    shape: ClassVar[tuple[int, ...]] = (86, 34)
    dtype: ClassVar[np.dtype[np.generic]] = np.dtype(np.float32)
    count_channels: ClassVar[int] = 40

    @classmethod
    def channels(cls) -> list[ChannelRow]:
        return [("0-85", "zeros", "nothing")]

    def encode(self, view: SeatView, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
        return np.zeros(self.shape, np.float32)


def test_an_encoder_with_only_some_count_channels_is_refused() -> None:
    """``count_channels`` is 0 or every channel: a batch refuses anything between with one
    line before writing a row."""
    arrays: Arrays = {"observation": np.zeros((1, 86, 34), np.float32),
                      "action_mask": np.zeros((1, NUM_ACTIONS), np.int8)}
    with pytest.raises(ValueError, match="count_channels must be 0 or all 86 channels, not 40"):
        RowWriter(arrays, _Partial())
