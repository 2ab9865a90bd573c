"""Hand analysis for players and agents: what a ready hand waits for and what each wait
scores, and which discard of a 14-tile hand keeps it closest to ready.

* :func:`waits`: the winning tiles of a ready 13-form hand, each scored by the fan calculator
  (:func:`mjenv.fans.calculate`) under the given flags (a :class:`~mjenv.fans.WinContext`,
  or its seven keywords), with whether it reaches the 8-point minimum and how many copies are
  still unseen.
* :func:`best_discards`: for a 14-form hand, each distinct discard with the shanten it leaves
  and the useful tiles it keeps, best first.
* :func:`analyze_hand`: both, with the shanten of every shape (what ``mjenv hand`` prints).

Shanten, useful tiles and their conventions are those of :mod:`mjenv.shanten`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import overload

from mjenv.fans import FanResult, InvalidHandError, WinContext, calculate
from mjenv.fans.context import UNSET
from mjenv.fans.hand import resolve_context
from mjenv.melds import KONG_KINDS, Meld
from mjenv.shanten import CheckedHand, ShantenResult, analyze_counts, seen_counts_of
from mjenv.tiles import NUM_KINDS

# ---------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Wait:
    """One winning tile of a ready hand.

    ``unseen``: copies neither in the player's hand and melds nor among the seen tiles.
    ``result``: the score if the hand wins on this tile under the flags given, or None when
    that win cannot happen; ``why_not`` then says why (all four copies are the player's own,
    or robbing a kong of a tile the player holds).
    """

    tile: int
    unseen: int
    result: FanResult | None
    why_not: str = ""

    @property
    def total(self) -> int | None:
        """Points with flowers, or None when the win cannot happen."""
        return None if self.result is None else self.result.total

    @property
    def meets_minimum(self) -> bool:
        """Whether winning on this tile is allowed: 8 points without flowers."""
        return self.result is not None and self.result.meets_minimum


@dataclass(frozen=True, slots=True)
class Discard:
    """One discard of a 14-form hand and the 13-form hand it leaves (``after``); ``waits``
    are filled when asked for and the hand left is ready."""

    tile: int
    after: ShantenResult
    waits: tuple[Wait, ...] = ()

    @property
    def shanten(self) -> int:
        return self.after.shanten

    @property
    def useful(self) -> tuple[int, ...]:
        """Kinds that would then lower the shanten (see :mod:`mjenv.shanten`)."""
        return self.after.useful

    @property
    def drawable(self) -> tuple[int, ...]:
        return self.after.drawable

    @property
    def unseen(self) -> int:
        """Copies of the drawable useful kinds not the player's own and not seen."""
        return self.after.unseen_total


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """Everything ``mjenv hand`` prints: the shanten result, the waits of a ready 13-form
    hand (else empty) and the discards of a 14-form hand, best first (else empty)."""

    shanten: ShantenResult
    waits: tuple[Wait, ...]
    discards: tuple[Discard, ...]


# ---------------------------------------------------------------- flags


def _context(melds: list[Meld], context: WinContext | None, self_drawn: object,
             last_copy: object, last_tile: object, kong_win: object, seat_wind: object,
             prevalent_wind: object, flowers: object) -> WinContext:
    """The flags, checked once for every wait (robbing a kong of a tile the player holds is
    checked per wait: that wait says why it cannot happen)."""
    found = resolve_context(context, self_drawn, last_copy, last_tile, kong_win, seat_wind,
                            prevalent_wind, flowers)
    why = found.conflict(any(m.kind in KONG_KINDS for m in melds))
    if why:
        raise InvalidHandError(why)
    return found


# ---------------------------------------------------------------- waits


def _standing(counts: list[int]) -> list[int]:
    return [t for t in range(NUM_KINDS) for _ in range(counts[t])]


def _waits_of(counts: list[int], melds: list[Meld], own: list[int], seen: list[int] | None,
              winning: tuple[int, ...], context: WinContext) -> tuple[Wait, ...]:
    """Score each winning tile of a ready 13-form hand given as counts."""
    standing = _standing(counts)
    has_kong = any(m.kind in KONG_KINDS for m in melds)
    out: list[Wait] = []
    for t in winning:
        unseen = 4 - own[t] - (seen[t] if seen is not None else 0)
        if own[t] >= 4:
            out.append(Wait(t, 0, None, "all four copies are in the hand and melds"))
            continue
        why = context.conflict(has_kong, t, own[t])  # robbing a kong of a tile held
        if why:
            out.append(Wait(t, unseen, None, why))
            continue
        # 和绝张 follows from the seen tiles when they are given: the three other copies
        # in view (seen, or in the player's own melds)
        won = context
        if (not context.last_copy and seen is not None
                and seen[t] + own[t] - counts[t] == 3):
            won = replace(context, last_copy=True)
        out.append(Wait(t, unseen, calculate(standing, melds, t, context=won)))
    return tuple(out)


def _prepare(hand: object, melds: object, seen: object, seen_counts: object
             ) -> tuple[CheckedHand, list[int] | None]:
    h = CheckedHand(hand, melds)
    table = None
    if seen is not None or seen_counts is not None:
        table = seen_counts_of(seen, seen_counts, h.own)
    return h, table


@overload
def waits(hand: object, melds: object = (), *, seen: object = None, seen_counts: object = None,
          context: WinContext | None) -> tuple[Wait, ...]: ...


@overload
def waits(hand: object, melds: object = (), *, seen: object = None, seen_counts: object = None,
          self_drawn: object = ..., last_copy: object = ..., last_tile: object = ...,
          kong_win: object = ..., seat_wind: object = ..., prevalent_wind: object = ...,
          flowers: object = ...) -> tuple[Wait, ...]: ...


def waits(hand: object, melds: object = (), *, seen: object = None, seen_counts: object = None,
          context: WinContext | None = None, self_drawn: object = UNSET,
          last_copy: object = UNSET, last_tile: object = UNSET, kong_win: object = UNSET,
          seat_wind: object = UNSET, prevalent_wind: object = UNSET,
          flowers: object = UNSET) -> tuple[Wait, ...]:
    """The winning tiles of a ready hand (13 − 3·melds standing tiles, shanten 0), each
    scored as if the hand won on it; empty when the hand is not ready.

    Input as :func:`mjenv.shanten.analyze`; the flags are those of
    :func:`mjenv.fans.calculate` (a ``context``, or its seven keywords, not both) and apply to
    every wait, except that with seen tiles given, 和绝张 (``last_copy``) is also set for a
    tile whose three other copies are in view (seen or in the player's melds). Raises
    ``ValueError`` for input that cannot be a hand and for impossible flags (``TypeError`` for
    both a context and flag keywords).
    """
    h, table = _prepare(hand, melds, seen, seen_counts)
    context = _context(h.melds, context, self_drawn, last_copy, last_tile, kong_win, seat_wind,
                       prevalent_wind, flowers)
    if h.discard_first:
        raise ValueError(f"waits are for a hand waiting for a tile ({13 - 3 * h.n_melds} "
                         f"standing tiles); this one has {h.size}: see best_discards")
    result = analyze_counts(h.counts, h.n_melds, h.own, table)
    if result.shanten != 0:
        return ()
    return _waits_of(h.counts, h.melds, h.own, table, result.useful, context)


def _discards(h: CheckedHand, table: list[int] | None, context: WinContext | None
              ) -> tuple[Discard, ...]:
    """Every distinct discard; the discarded copy is on the table then, so it counts as seen
    (a wait on the discarded kind has one unseen copy fewer)."""
    counts = list(h.counts)
    own = list(h.own)
    seen = list(table) if table is not None else [0] * NUM_KINDS
    out: list[Discard] = []
    for t in range(NUM_KINDS):
        if not counts[t]:
            continue
        counts[t] -= 1
        own[t] -= 1
        seen[t] += 1
        after = analyze_counts(counts, h.n_melds, own, seen)
        found: tuple[Wait, ...] = ()
        if context is not None and after.shanten == 0:
            found = _waits_of(counts, h.melds, own, seen, after.useful, context)
        counts[t] += 1
        own[t] += 1
        seen[t] -= 1
        out.append(Discard(t, after, found))
    out.sort(key=_discard_order)
    return tuple(out)


def _discard_order(d: Discard) -> tuple[int, int, int, int]:
    return d.after.shanten, -d.after.unseen_total, -len(d.after.drawable), d.tile


def best_discards(hand: object, melds: object = (), *, seen: object = None,
                  seen_counts: object = None) -> tuple[Discard, ...]:
    """Each distinct discard of a 14-form hand (14 − 3·melds standing tiles), best first:
    lowest shanten left, then most copies of useful tiles still unseen (neither in the
    player's hand and melds, nor seen, nor the discard itself), then most useful kinds, then
    tile order. Input as :func:`mjenv.shanten.analyze`."""
    h, table = _prepare(hand, melds, seen, seen_counts)
    if not h.discard_first:
        raise ValueError(f"discards are for a hand with a tile to discard "
                         f"({14 - 3 * h.n_melds} standing tiles); this one has {h.size}")
    return _discards(h, table, None)


@overload
def analyze_hand(hand: object, melds: object = (), *, seen: object = None,
                 seen_counts: object = None, context: WinContext | None) -> HandAnalysis: ...


@overload
def analyze_hand(hand: object, melds: object = (), *, seen: object = None,
                 seen_counts: object = None, self_drawn: object = ..., last_copy: object = ...,
                 last_tile: object = ..., kong_win: object = ..., seat_wind: object = ...,
                 prevalent_wind: object = ..., flowers: object = ...) -> HandAnalysis: ...


def analyze_hand(hand: object, melds: object = (), *, seen: object = None,
                 seen_counts: object = None, context: WinContext | None = None,
                 self_drawn: object = UNSET, last_copy: object = UNSET,
                 last_tile: object = UNSET, kong_win: object = UNSET,
                 seat_wind: object = UNSET, prevalent_wind: object = UNSET,
                 flowers: object = UNSET) -> HandAnalysis:
    """Shanten and useful tiles of any hand; for a ready 13-form hand its scored waits, for a
    14-form hand every discard best first, with the scored waits of those that leave it
    ready. Arguments as :func:`waits`."""
    h, table = _prepare(hand, melds, seen, seen_counts)
    context = _context(h.melds, context, self_drawn, last_copy, last_tile, kong_win, seat_wind,
                       prevalent_wind, flowers)
    result = analyze_counts(h.counts, h.n_melds, h.own, table)
    if h.discard_first:
        return HandAnalysis(result, (), _discards(h, table, context))
    found: tuple[Wait, ...] = ()
    if result.shanten == 0:
        found = _waits_of(h.counts, h.melds, h.own, table, result.useful, context)
    return HandAnalysis(result, found, ())
