"""The encoder interface, the registries and the channel tables.

A **seat encoder** turns what one seat knows (a :class:`~mjenv.engine.seat_view.SeatView`, folded
only from the events that seat may see) and its legal-action mask into a numpy array. It never
reads the :class:`~mjenv.engine.game.Game`, so an observation cannot leak hidden tiles.

An **oracle encoder** is the one named exception: it reads the game itself (every hand, the
wall) for oracle-guided training, and the env adds its output only under ``oracle=True``.

Every encoder class carries ``name`` (versioned: a changed layout gets a new name), ``shape``,
``dtype``, ``low`` / ``high`` (the bounds of a ``gymnasium.spaces.Box``) and
:meth:`~Encoder.channels`, the documented channel table (every index exactly once). ``encode``
returns a NEW array on every call, so callers may keep observations.

>>> from mjenv.engine import MCR
>>> enc = make_encoder("mjenv-v1", MCR)
>>> enc.shape, enc.dtype
((86, 34), dtype('float32'))
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import numpy.typing as npt

from mjenv.engine.rules import MCR, RuleConfig

if TYPE_CHECKING:
    from mjenv.engine.game import Game
    from mjenv.engine.seat_view import SeatView

ChannelRow = tuple[str, str, str]
"""One row of a channel table: (index or slice text such as ``"0"`` or ``"9-16"``, name,
description)."""


class Encoder(ABC):
    """What every encoder (seat or oracle) declares."""

    name: ClassVar[str]
    shape: ClassVar[tuple[int, ...]]
    dtype: ClassVar[np.dtype[np.generic]]
    low: ClassVar[float] = 0.0
    high: ClassVar[float] = 1.0

    def __init__(self, rules: RuleConfig = MCR) -> None:
        self.rules = rules

    @classmethod
    @abstractmethod
    def channels(cls) -> list[ChannelRow]:
        """The channel table: every index of the first axis exactly once, in order."""

    def state_objects(self) -> list[object]:
        """The objects an encoder keeps between calls (its memos), for a batch that prefetches
        a game's memory before stepping it (:mod:`mjenv.vector.prefetch`); none by default."""
        return []

    def state_lists(self) -> list[list[Any]]:
        """Lists among :meth:`state_objects` whose items an encoding reads and which change from
        call to call (memo blocks made anew), so that a batch can prefetch those items too
        (:func:`mjenv.vector.prefetch.prefetch_items`); none by default."""
        return []

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, shape={self.shape})"


class SeatEncoder(Encoder):
    """A seat's observation from its view and its legal-action mask (int8, 235)."""

    @abstractmethod
    def encode(self, view: SeatView, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.generic]:
        """A new array of ``shape`` and ``dtype`` with every value in [low, high]."""

    def encode_into(self, view: SeatView, mask: npt.NDArray[np.int8],
                    out: npt.NDArray[np.generic]) -> None:
        """Write what :meth:`encode` gives into ``out`` (an array of ``shape``, e.g. a row of a
        batch). Why: a batch of games keeps one preallocated array, and an encoder that can
        write there directly saves a new array and a copy per decision; this default copies."""
        out[...] = self.encode(view, mask)

    # ---- optional: observations made of integer counts and fixed factors
    count_channels: ClassVar[int] = 0
    """``shape[0]`` for an encoder whose every cell is an integer count (0-255) times a fixed
    per-cell scale or divided by a fixed per-cell divisor, as :meth:`counts`,
    :meth:`count_scale` and :meth:`count_divisor` give them; 0 for an encoder that does not
    write its observation that way. Why: a batch of games then stages every game's counts as
    bytes and turns them all into the observation in one or two numpy calls per step,
    instead of small numpy calls per game (mjenv.vector's row writer)."""

    def counts(self, view: SeatView, mask: npt.NDArray[np.int8]) -> bytes:
        """The observation as counts, one byte a cell, row-major (``count_channels`` * 34)."""
        raise NotImplementedError(f"{self.name} writes no counts (count_channels = 0)")

    def count_scale(self) -> npt.NDArray[np.float32]:
        """The (S, 34) float32 scales of the first S channels (read-only, shared): there the
        observation is the counts times these, cell by cell."""
        raise NotImplementedError(f"{self.name} writes no counts (count_channels = 0)")

    def count_divisor(self) -> npt.NDArray[np.float32] | None:
        """The (count_channels - S, 34) float32 divisors of the channels after the scaled ones
        (read-only, shared): there the observation is the counts divided by these, cell by
        cell; None when the scales cover every channel. A quotient, for values that a product
        with the reciprocal would round otherwise (the ``shanten-v1`` planes' count / 40)."""
        return None


class OracleEncoder(Encoder):
    """Perfect information for oracle-guided training, read from the game (not a view)."""

    @abstractmethod
    def encode(self, game: Game, seat: int) -> npt.NDArray[np.generic]:
        """A new array of ``shape`` and ``dtype``, rotated so that ``seat`` is "self"."""


ENCODERS: dict[str, type[SeatEncoder]] = {}
"""Seat encoders by name (filled by :mod:`mjenv.encoders`)."""
ORACLE_ENCODERS: dict[str, type[OracleEncoder]] = {}
"""Oracle encoders by name (filled by :mod:`mjenv.encoders`)."""

DEFAULT_ENCODER = "mjenv-v1"
DEFAULT_ORACLE = "oracle-v1"


def register(cls: type[SeatEncoder]) -> type[SeatEncoder]:
    """Add a seat encoder class to :data:`ENCODERS` under its ``name``."""
    ENCODERS[cls.name] = cls
    return cls


def register_oracle(cls: type[OracleEncoder]) -> type[OracleEncoder]:
    """Add an oracle encoder class to :data:`ORACLE_ENCODERS` under its ``name``."""
    ORACLE_ENCODERS[cls.name] = cls
    return cls


def _lookup(name: str, table: dict[str, type[SeatEncoder]] | dict[str, type[OracleEncoder]],
            what: str) -> type[Encoder]:
    if not isinstance(name, str) or name not in table:
        raise ValueError(f"unknown {what} {name!r}: known {sorted(table)}")
    return table[name]


def make_encoder(name: str = DEFAULT_ENCODER, rules: RuleConfig = MCR) -> SeatEncoder:
    """A seat encoder by name; ValueError lists the known names."""
    if name in ORACLE_ENCODERS:
        raise ValueError(f"{name!r} is an oracle encoder (it reads the game, not a seat's "
                         f"view): use make_oracle({name!r}, rules); seat encoders: "
                         f"{sorted(ENCODERS)}")
    cls = _lookup(name, ENCODERS, "encoder")
    assert issubclass(cls, SeatEncoder)
    return cls(rules)


def make_oracle(name: str = DEFAULT_ORACLE, rules: RuleConfig = MCR) -> OracleEncoder:
    """An oracle encoder by name; ValueError lists the known names."""
    cls = _lookup(name, ORACLE_ENCODERS, "oracle encoder")
    assert issubclass(cls, OracleEncoder)
    return cls(rules)


def encoder_class(name: str) -> type[Encoder]:
    """The class of a seat or oracle encoder; ValueError lists every known name."""
    if name in ENCODERS:
        return ENCODERS[name]
    if name in ORACLE_ENCODERS:
        return ORACLE_ENCODERS[name]
    known = sorted([*ENCODERS, *ORACLE_ENCODERS])
    raise ValueError(f"unknown encoder {name!r}: known {known}")


def describe_channels(name: str) -> str:
    """The channel table of an encoder as markdown (for the env card and ``docs/env.md``)."""
    cls = encoder_class(name)
    shape = " × ".join(str(n) for n in cls.shape)
    lines = [
        f"`{cls.name}`: shape ({shape}), dtype {np.dtype(cls.dtype).name}, "
        f"values in [{cls.low:g}, {cls.high:g}]",
        "",
        "| channels | name | description |",
        "|---|---|---|",
    ]
    lines.extend(f"| {i} | {n} | {d.replace('|', '/')} |" for i, n, d in cls.channels())
    return "\n".join(lines) + "\n"


def channel_indices(spec: str) -> list[int]:
    """``"5"`` -> [5]; ``"9-16"`` -> [9, ..., 16] (the index text of a channel row)."""
    a, sep, b = spec.partition("-")
    return list(range(int(a), int(b) + 1)) if sep else [int(a)]
