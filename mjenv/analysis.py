"""Hand analysis for players and agents: what a ready hand waits for and what each wait
scores, and which discard of a 14-tile hand keeps it closest to ready.

* :func:`waits`: the winning tiles of a ready 13-form hand, each scored by the fan calculator
  (:func:`mjenv.fans.calculate`) under the given flags, with whether it reaches the 8-point
  minimum and how many copies are still unseen.
* :func:`best_discards`: for a 14-form hand, each distinct discard with the shanten it leaves
  and the useful tiles it keeps, best first.
* :func:`analyze_hand`: both, with the shanten of every shape (what ``mjenv hand`` prints).

Shanten, useful tiles and their conventions are those of :mod:`mjenv.shanten`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjenv.fans import FanResult, calculate
from mjenv.inputs import flag, small_int
from mjenv.melds import KONG_KINDS, Meld
from mjenv.shanten import CheckedHand, ShantenResult, analyze_counts, seen_counts_of
from mjenv.tiles import CODES, NUM_KINDS

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


@dataclass(frozen=True, slots=True)
class _Flags:
    self_drawn: bool
    last_copy: bool
    last_tile: bool
    kong_win: bool
    seat_wind: int
    prevalent_wind: int
    flowers: int


def _flags(melds: list[Meld], self_drawn: object, last_copy: object, last_tile: object,
           kong_win: object, seat_wind: object, prevalent_wind: object,
           flowers: object) -> _Flags:
    """The flags checked once for every wait (the calculator checks them again per wait)."""
    flags = _Flags(flag(self_drawn, "self_drawn"), flag(last_copy, "last_copy"),
                   flag(last_tile, "last_tile"), flag(kong_win, "kong_win"),
                   small_int(seat_wind, "seat_wind", 3),
                   small_int(prevalent_wind, "prevalent_wind", 3),
                   small_int(flowers, "flowers", 8))
    if flags.kong_win and flags.self_drawn and not any(m.kind in KONG_KINDS for m in melds):
        raise ValueError("kong_win with self_drawn (杠上开花) needs a kong")
    if flags.kong_win and not flags.self_drawn and flags.last_tile:
        raise ValueError("robbing a kong (抢杠和) cannot be on the last tile")
    return flags


# ---------------------------------------------------------------- waits


def _standing(counts: list[int]) -> list[int]:
    return [t for t in range(NUM_KINDS) for _ in range(counts[t])]


def _waits_of(counts: list[int], melds: list[Meld], own: list[int], seen: list[int] | None,
              winning: tuple[int, ...], flags: _Flags) -> tuple[Wait, ...]:
    """Score each winning tile of a ready 13-form hand given as counts."""
    standing = _standing(counts)
    out: list[Wait] = []
    for t in winning:
        unseen = 4 - own[t] - (seen[t] if seen is not None else 0)
        if own[t] >= 4:
            out.append(Wait(t, 0, None, "all four copies are in the hand and melds"))
            continue
        if flags.kong_win and not flags.self_drawn and own[t]:
            out.append(Wait(t, unseen, None, f"robbing a kong of {CODES[t]} is impossible "
                            "while holding or having melded a copy"))
            continue
        # 和绝张 follows from the seen tiles when they are given: the three other copies
        # in view (seen, or in the player's own melds)
        last_copy = flags.last_copy or (seen is not None and seen[t] + own[t] - counts[t] == 3)
        result = calculate(standing, melds, t, self_drawn=flags.self_drawn,
                           last_copy=last_copy, last_tile=flags.last_tile,
                           kong_win=flags.kong_win, seat_wind=flags.seat_wind,
                           prevalent_wind=flags.prevalent_wind, flowers=flags.flowers)
        out.append(Wait(t, unseen, result))
    return tuple(out)


def _prepare(hand: object, melds: object, seen: object, seen_counts: object
             ) -> tuple[CheckedHand, list[int] | None]:
    h = CheckedHand(hand, melds)
    table = None
    if seen is not None or seen_counts is not None:
        table = seen_counts_of(seen, seen_counts, h.own)
    return h, table


def waits(hand: object, melds: object = (), *, seen: object = None, seen_counts: object = None,
          self_drawn: object = False, last_copy: object = False, last_tile: object = False,
          kong_win: object = False, seat_wind: object = 0, prevalent_wind: object = 0,
          flowers: object = 0) -> tuple[Wait, ...]:
    """The winning tiles of a ready hand (13 − 3·melds standing tiles, shanten 0), each
    scored as if the hand won on it; empty when the hand is not ready.

    Input as :func:`mjenv.shanten.analyze`; the flags are those of
    :func:`mjenv.fans.calculate` and apply to every wait, except that with seen tiles given,
    和绝张 (``last_copy``) is also set for a tile whose three other copies are in view (seen or
    in the player's melds). Raises ``ValueError`` for input that cannot be a hand and for
    impossible flags.
    """
    h, table = _prepare(hand, melds, seen, seen_counts)
    flags = _flags(h.melds, self_drawn, last_copy, last_tile, kong_win, seat_wind,
                   prevalent_wind, flowers)
    if h.discard_first:
        raise ValueError(f"waits are for a hand waiting for a tile ({13 - 3 * h.n_melds} "
                         f"standing tiles); this one has {h.size}: see best_discards")
    result = analyze_counts(h.counts, h.n_melds, h.own, table)
    if result.shanten != 0:
        return ()
    return _waits_of(h.counts, h.melds, h.own, table, result.useful, flags)


def _discards(h: CheckedHand, table: list[int] | None, flags: _Flags | None
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
        if flags is not None and after.shanten == 0:
            found = _waits_of(counts, h.melds, own, seen, after.useful, flags)
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


def analyze_hand(hand: object, melds: object = (), *, seen: object = None,
                 seen_counts: object = None, self_drawn: object = False,
                 last_copy: object = False, last_tile: object = False,
                 kong_win: object = False, seat_wind: object = 0, prevalent_wind: object = 0,
                 flowers: object = 0) -> HandAnalysis:
    """Shanten and useful tiles of any hand; for a ready 13-form hand its scored waits, for a
    14-form hand every discard best first, with the scored waits of those that leave it
    ready. Arguments as :func:`waits`."""
    h, table = _prepare(hand, melds, seen, seen_counts)
    flags = _flags(h.melds, self_drawn, last_copy, last_tile, kong_win, seat_wind,
                   prevalent_wind, flowers)
    result = analyze_counts(h.counts, h.n_melds, h.own, table)
    if h.discard_first:
        return HandAnalysis(result, (), _discards(h, table, flags))
    found: tuple[Wait, ...] = ()
    if result.shanten == 0:
        found = _waits_of(h.counts, h.melds, h.own, table, result.useful, flags)
    return HandAnalysis(result, found, ())
