"""The calculator's input, checked and normalised, with the facts every reading shares.

Tiles may come as ids, codes or one string in any notation; melds as ``Meld`` objects or their
JSON dicts; the flags come as a :class:`~mjenv.fans.context.WinContext` (found or built from
the keyword form by :func:`resolve_context`), already checked on their own; the combinations
that depend on the hand are checked here, by the context's ``conflict``. Bad input raises
``InvalidHandError`` naming what is wrong. 和绝张 is normalised as rules §3.1 says (cleared
when the winner holds a copy, forced by the winner's own melds).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from mjenv.decompose import honor_group_info, suit_group_info
from mjenv.fans.context import FLAG_NAMES, UNSET, WinContext
from mjenv.fans.result import InvalidHandError
from mjenv.inputs import KIND_OF, meld_of, tile_kind, tile_kinds
from mjenv.melds import CHOW, CONCEALED_KONG, PUNG, Meld
from mjenv.tiles import CODES, EAST, NUM_KINDS, tile_code

_NO_FANS: dict[int, int] = {}


_KIND_TO_ID: dict[object, int] = dict(KIND_OF)
"""Codes and ids of the 34 kinds, held in this (compiled) module for the hot path."""


def _standing_tiles(values: str | Iterable[object]) -> list[int]:
    """Ids of the tiles: a dictionary lookup each in the common case (ids or codes), the
    careful path (which says what is wrong) otherwise."""
    if not isinstance(values, str):
        try:
            return [_KIND_TO_ID[v] for v in values]
        except (KeyError, TypeError):
            pass  # a flower, a glyph, a bad tile
    return tile_kinds(values, "hand", InvalidHandError)


_KEPT: Final[list[WinContext | None]] = [None] * (16 * 4 * 4 * 9)
"""The contexts built from keywords, by an index of the flags' values (built when first
asked for: each distinct set of flags makes one context)."""


def resolve_context(context: object, self_drawn: Any = UNSET, last_copy: Any = UNSET,
                    last_tile: Any = UNSET, kong_win: Any = UNSET, seat_wind: Any = UNSET,
                    prevalent_wind: Any = UNSET, flowers: Any = UNSET) -> WinContext:
    """The flags of a call that takes either ``context`` (a :class:`WinContext`, or None) or
    the seven flag keywords (those not given are ``UNSET`` and take ``WinContext``'s
    defaults). The checks are ``WinContext``'s; this only finds or builds the context, in this
    compiled module because the keyword form runs on every call. Raises ``TypeError`` for a
    context and keywords at once or a ``context`` that is not a ``WinContext``."""
    # the common call first: all seven keywords, of exact types (1 == True, and the context
    # of True must not answer for 1; UNSET is neither a bool nor an int)
    if (context is None and type(self_drawn) is bool and type(last_copy) is bool
            and type(last_tile) is bool and type(kong_win) is bool and type(seat_wind) is int
            and type(prevalent_wind) is int and type(flowers) is int):
        seat: int = seat_wind
        prevalent: int = prevalent_wind
        n_flowers: int = flowers
        if 0 <= seat <= 3 and 0 <= prevalent <= 3 and 0 <= n_flowers <= 8:
            index = ((1 if self_drawn else 0) + (2 if last_copy else 0)
                     + (4 if last_tile else 0) + (8 if kong_win else 0)
                     + 16 * (seat + 4 * prevalent + 16 * n_flowers))
            found = _KEPT[index]
            if found is None:  # WinContext checks the combination
                found = _KEPT[index] = WinContext(self_drawn, last_copy, last_tile, kong_win,
                                                  seat, prevalent, n_flowers)
            return found
        return WinContext(self_drawn, last_copy, last_tile, kong_win, seat, prevalent,
                          n_flowers)  # raises, naming the number out of range
    unset = UNSET
    if context is not None:
        if (self_drawn is unset and last_copy is unset and last_tile is unset
                and kong_win is unset and seat_wind is unset and prevalent_wind is unset
                and flowers is unset):
            if not isinstance(context, WinContext):
                raise TypeError(f"context must be a WinContext, got {context!r}")
            return context
        names = [name for name, value in zip(FLAG_NAMES, (
            self_drawn, last_copy, last_tile, kong_win, seat_wind, prevalent_wind, flowers),
            strict=True) if value is not unset]
        raise TypeError(f"pass either context= or the flag keywords, not both (got context "
                        f"and {', '.join(names)})")
    given = (self_drawn, last_copy, last_tile, kong_win, seat_wind, prevalent_wind, flowers)
    if not any(value is unset for value in given):  # one of a wrong type: WinContext names it
        return WinContext(self_drawn, last_copy, last_tile, kong_win, seat_wind,
                          prevalent_wind, flowers)
    return resolve_context(
        None, False if self_drawn is unset else self_drawn,
        False if last_copy is unset else last_copy, False if last_tile is unset else last_tile,
        False if kong_win is unset else kong_win, 0 if seat_wind is unset else seat_wind,
        0 if prevalent_wind is unset else prevalent_wind, 0 if flowers is unset else flowers)


class PreparedHand:
    """Validated input with the normalised 和绝张, and what every reading shares."""

    __slots__ = ("standing", "counts", "melds", "win", "context", "self_drawn", "last_copy",
                 "last_tile", "kong_win", "flowers", "all_counts", "meld_chows",
                 "meld_pung_tiles", "melded_kongs", "concealed_kongs", "n_exposed",
                 "nine_gates", "regular_base", "_last_copy_rule", "_unique_wait")

    standing: list[int]
    counts: list[int]
    all_counts: list[int]
    melds: list[Meld]
    win: int
    context: WinContext
    """How the hand was won, as given (checked)."""
    # The flags scoring reads, copied from the context once the hand is known complete
    # (begin_scoring; kong_win with the input checks): the calculator reads them on every
    # reading, and compiled code reads an attribute of a plain Python object (the context)
    # through a generic lookup, about ten times the cost of a native field.
    self_drawn: bool
    last_copy: bool
    """和绝张 normalised (rules §3.1): not the context's flag when the hand decides it."""
    last_tile: bool
    kong_win: bool
    flowers: int
    meld_chows: tuple[int, ...]
    meld_pung_tiles: tuple[int, ...]
    melded_kongs: int
    concealed_kongs: int
    n_exposed: int
    nine_gates: bool
    regular_base: dict[int, int]
    _last_copy_rule: int  # 和绝张: 0 cleared (a copy held), 1 forced (3 in own melds), -1 flag

    def __init__(self, hand: str | Iterable[object], melds: Iterable[object], win_tile: object,
                 context: WinContext) -> None:
        standing = _standing_tiles(hand)
        meld_list = [m if type(m) is Meld else meld_of(m, InvalidHandError) for m in melds]
        win = _KIND_TO_ID.get(win_tile, -1) if not isinstance(win_tile, bool) else -1
        if win < 0:
            win = tile_kind(win_tile, "win_tile", InvalidHandError)
        if len(meld_list) > 4:
            raise InvalidHandError(f"at most 4 melds, got {len(meld_list)}")
        expected = 13 - 3 * len(meld_list)
        if len(standing) != expected:
            raise InvalidHandError(
                f"wrong tile count: with {len(meld_list)} meld(s) the hand holds {expected} "
                f"tiles besides the winning tile, got {len(standing)}")
        counts = [0] * NUM_KINDS
        for t in standing:
            counts[t] += 1
        held_win = counts[win] > 0
        counts[win] += 1
        meld_copies_of_win = 0
        meld_chows: list[int] = []
        meld_pungs: list[int] = []
        concealed_kongs = melded_kongs = 0
        if meld_list:
            all_counts = counts[:]
            for m in meld_list:
                for t in m.tiles:
                    all_counts[t] += 1
                kind = m.kind
                if kind == CHOW:
                    meld_chows.append(m.tiles[0])
                else:
                    meld_pungs.append(m.tiles[0])
                    if kind == CONCEALED_KONG:
                        concealed_kongs += 1
                    elif kind != PUNG:
                        melded_kongs += 1
                meld_copies_of_win += m.tiles.count(win)
        else:
            all_counts = counts
        if max(all_counts) > 4:
            t = max(range(NUM_KINDS), key=all_counts.__getitem__)
            raise InvalidHandError(f"more than 4 copies of {CODES[t]} ({all_counts[t]})")
        kong_win = self.kong_win = context.kong_win
        if kong_win:
            why = context.conflict(concealed_kongs + melded_kongs > 0, win,
                                   counts[win] - 1 + meld_copies_of_win)
            if why:
                raise InvalidHandError(why)
        # 和绝张 as rules §3.1 says: cleared when a copy is held, forced by the own melds
        self._last_copy_rule = 0 if held_win else 1 if meld_copies_of_win == 3 else -1
        standing.append(win)
        self.context = context
        self.standing = standing
        self.counts = counts
        self.melds = meld_list
        self.win = win
        self.all_counts = all_counts
        self.meld_chows = tuple(meld_chows)
        self.meld_pung_tiles = tuple(meld_pungs)
        self.concealed_kongs = concealed_kongs
        self.melded_kongs = melded_kongs
        self.n_exposed = len(meld_list) - concealed_kongs
        self.nine_gates = False  # set by begin_scoring, once the hand is known complete
        self.regular_base = _NO_FANS  # the fans every reading shares, set by the calculator
        self._unique_wait: bool | None = None

    def __str__(self) -> str:
        return describe_hand(self)

    def begin_scoring(self) -> None:
        """What only a complete hand needs: the flags, copied from the context with 和绝张
        normalised (``kong_win`` is read with the input checks), and whether the hand is
        九莲宝灯's 1112345678999 before the win."""
        context = self.context
        self.self_drawn = context.self_drawn
        self.last_tile = context.last_tile
        self.flowers = context.flowers
        rule = self._last_copy_rule
        self.last_copy = rule > 0 or (rule < 0 and context.last_copy)
        win, counts = self.win, self.counts
        self.nine_gates = bool(not self.melds and win < EAST and counts[win - win % 9] >= 3
                               and _is_nine_gates(counts, win))

    def unique_wait(self) -> bool:
        """Whether the hand before the win had exactly one winning kind (独听), counting
        regular and (fully concealed) seven-pairs waits and a fifth copy, as PyMahjongGB does.

        Only the winning tile's suit changed, so only its waits need looking up: the other
        suits are complete, and one of them can offer a wait only when the winning suit is
        complete with its pair without the winning tile (a two-pair wait)."""
        if self._unique_wait is None:
            self._unique_wait = self._find_unique_wait()
        return self._unique_wait

    def _find_unique_wait(self) -> bool:
        counts, win = self.counts, self.win
        start = win - win % 9 if win < EAST else EAST
        before = counts[start:start + 9] if win < EAST else counts[EAST:]
        before[win - start] -= 1
        info = suit_group_info(tuple(before)) if win < EAST else honor_group_info(tuple(before))
        if info.rem == 1:  # the winning tile completed the pair's group
            if len(info.waits_with_pair) != 1:
                return False
        else:
            if len(info.waits) != 1:
                return False
            if info.complete_with_pair and _other_group_waits(counts, start):
                return False
        # a seven-pairs wait on the other tile held an odd number of times?
        return bool(self.melds) or counts.count(1) + counts.count(3) != 2 or not counts[win] % 2


def _other_group_waits(counts: Sequence[int], skip: int) -> bool:
    """Whether the group holding the pair (other than the one at ``skip``) could take one more
    tile as part of a set: the second half of a two-pair wait."""
    for start in (0, 9, 18, EAST):
        if start == skip:
            continue
        if start < EAST:
            info = suit_group_info(tuple(counts[start:start + 9]))
        else:
            info = honor_group_info(tuple(counts[EAST:]))
        if info.rem == 2:
            return bool(info.waits)
    return False



_NINE_GATES_BASE = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _is_nine_gates(counts: Sequence[int], win: int) -> bool:
    """Concealed 1112345678999 of the winning tile's suit before the win (no melds)."""
    if win >= EAST:
        return False
    start = win - win % 9
    before = list(counts[start:start + 9])
    before[win % 9] -= 1
    return tuple(before) == _NINE_GATES_BASE


def describe_hand(h: PreparedHand) -> str:
    hand = " ".join(tile_code(t) for t in h.standing[:-1])
    melds = "; ".join(m.describe() for m in h.melds)
    return f"{hand}" + (f" | {melds}" if melds else "") + f" + {tile_code(h.win)}"

