"""Events: everything that happens in a hand, as small frozen dataclasses.

Every event names its ``seat`` (the actor). ``private`` events (a deal, a draw, a concealed
kong's tile) are seen in full only by that seat until the hand ends; :func:`view` gives the
copy another seat sees (the hidden tiles replaced by ``-1``; a deal shows no tiles).
Public events are seen in full by everyone.

The module is compiled with mypyc (``setup.py``): the engine makes a few events per step, and
the seat views test their kinds and read their fields, all cheaper on compiled classes. Hence
two choices a plain dataclass would not need: ``private`` is a property (a class variable
with a default would be taken for a field by the compiled dataclass), and
:meth:`Event.__reduce__` rebuilds an event through its constructor (a compiled frozen class
cannot be unpickled or deep-copied field by field). And every event class is
``acyclic`` for mypyc: its fields are numbers, flags and tuples of them, which can never lead
back to an event, so the cyclic garbage collector need not track events. A hand makes about a
hundred of them and keeps them all; untracked, they no longer trigger or slow its collections,
which matters in a batch of a thousand games (docs/vector.md).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from mypy_extensions import mypyc_attr

HIDDEN = -1


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class Event:
    seat: int

    @property
    def private(self) -> bool:
        """Whether only ``seat`` sees this event in full before the hand ends."""
        return False

    def redacted(self) -> Event:
        """What the other seats see of this event."""
        return self

    def __reduce__(self) -> tuple[type[Event], tuple[object, ...]]:
        """Pickling and copying: the class and the field values (see the module docstring)."""
        return type(self), tuple(getattr(self, f.name) for f in fields(self))


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class Deal(Event):
    """The 13 tiles dealt to ``seat`` (flowers included, before replacement)."""

    tiles: tuple[int, ...]

    @property
    def private(self) -> bool:
        return True

    def redacted(self) -> Event:
        return replace(self, tiles=())


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class Flower(Event):
    """``seat`` exposes a flower (``initial`` during the initial replacement)."""

    tile: int
    initial: bool = False


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class Draw(Event):
    """``seat`` draws ``tile``, from the tail when ``replacement``."""

    tile: int
    replacement: bool = False

    @property
    def private(self) -> bool:
        return True

    def redacted(self) -> Event:
        return replace(self, tile=HIDDEN)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class Discard(Event):
    tile: int


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class Chow(Event):
    """``seat`` claims ``claimed`` from ``from_seat`` into the chow ``tiles``."""

    from_seat: int
    tiles: tuple[int, int, int]
    claimed: int


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class Pung(Event):
    from_seat: int
    tile: int


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class Kong(Event):
    """An exposed kong of a discard."""

    from_seat: int
    tile: int


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class AddedKong(Event):
    """``seat`` adds ``tile`` to its pung (robbable until the window closes)."""

    tile: int


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class ConcealedKong(Event):
    tile: int

    @property
    def private(self) -> bool:
        return True

    def redacted(self) -> Event:
        return replace(self, tile=HIDDEN)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class Win(Event):
    """``seat`` wins on ``tile``: self-drawn (``from_seat`` is None), on a discard, or robbing
    ``from_seat``'s added kong (``robbed``). ``revealed`` lists each seat's concealed kongs."""

    tile: int
    from_seat: int | None
    robbed: bool
    fan_total: int
    fans: tuple[tuple[str, int], ...]
    payments: tuple[int, int, int, int]
    revealed: tuple[tuple[int, ...], ...]


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class DrawGame(Event):
    """An exhaustive draw; ``seat`` is the last actor."""

    revealed: tuple[tuple[int, ...], ...]


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class Penalty(Event):
    """``seat`` declared a false win (false_win = "penalize"); the hand ends."""

    payments: tuple[int, int, int, int]
    revealed: tuple[tuple[int, ...], ...]


def view(event: Event, viewer: int, *, over: bool = False) -> Event:
    """``event`` as ``viewer`` sees it (everything once the hand is ``over``)."""
    if over or not event.private or event.seat == viewer:
        return event
    return event.redacted()
