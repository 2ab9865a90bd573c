"""Observation encoders: named, versioned, every channel documented.

=============  ==============  ===========================================================
name           shape, dtype    what
=============  ==============  ===========================================================
``mjenv-v1``   (86, 34) f32    the default: hand, melds (with suppliers), discards in order,
                               flowers, winds, dealer, wall, unseen tiles, the decision
``ijcai-v1``   (6, 4, 9) f32   the IJCAI / Botzone baseline's layout: winds and the hand
``oracle-v1``  (38, 34) f32    perfect information (every hand, the wall), for oracle-guided
                               training; reads the game, the one exception to the no-leak rule
=============  ==============  ===========================================================

Seat encoders read only a :class:`~mjenv.engine.seat_view.SeatView` and the legal-action
mask: ``make_encoder(name, rules).encode(view, mask)``. The oracle reads the game:
``make_oracle(name, rules).encode(game, seat)``. ``describe_channels(name)`` gives the
markdown channel table for the env card.
"""

from __future__ import annotations

from mjenv.encoders.base import (
    DEFAULT_ENCODER,
    DEFAULT_ORACLE,
    ENCODERS,
    ORACLE_ENCODERS,
    ChannelRow,
    Encoder,
    OracleEncoder,
    SeatEncoder,
    channel_indices,
    describe_channels,
    encoder_class,
    make_encoder,
    make_oracle,
    register,
    register_oracle,
)
from mjenv.encoders.default import DefaultEncoder
from mjenv.encoders.ijcai import IjcaiEncoder
from mjenv.encoders.oracle import OracleV1
from mjenv.encoders.shanten_encoder import ShantenEncoder

register(DefaultEncoder)
register(IjcaiEncoder)
register(ShantenEncoder)
register_oracle(OracleV1)

__all__ = [
    "DEFAULT_ENCODER",
    "DEFAULT_ORACLE",
    "ENCODERS",
    "ORACLE_ENCODERS",
    "ChannelRow",
    "DefaultEncoder",
    "Encoder",
    "IjcaiEncoder",
    "OracleEncoder",
    "OracleV1",
    "SeatEncoder",
    "ShantenEncoder",
    "channel_indices",
    "describe_channels",
    "encoder_class",
    "make_encoder",
    "make_oracle",
    "register",
    "register_oracle",
]
