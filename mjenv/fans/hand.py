"""The calculator's input, checked and normalised, with the facts every reading shares.

Tiles may come as ids, codes or one string in any notation; melds as ``Meld`` objects or their
JSON dicts. Bad input raises ``InvalidHandError`` naming what is wrong. Flags are normalised as
rules §3.1 says (和绝张 cleared when the winner holds a copy, forced by the winner's own melds).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mjenv.decompose import honor_group_info, suit_group_info
from mjenv.fans.result import InvalidHandError
from mjenv.inputs import KIND_OF, flag, meld_of, small_int, tile_kind, tile_kinds
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


class PreparedHand:
    """Validated input with normalised flags, and what every reading shares."""

    __slots__ = ("standing", "counts", "melds", "win", "self_drawn", "last_copy", "last_tile",
                 "kong_win", "seat_wind", "prevalent_wind", "flowers", "all_counts",
                 "meld_chows", "meld_pung_tiles", "melded_kongs", "concealed_kongs",
                 "n_exposed", "nine_gates", "regular_base", "_unique_wait")

    standing: list[int]
    counts: list[int]
    all_counts: list[int]
    melds: list[Meld]
    win: int
    self_drawn: bool
    last_copy: bool
    last_tile: bool
    kong_win: bool
    seat_wind: int
    prevalent_wind: int
    flowers: int
    meld_chows: tuple[int, ...]
    meld_pung_tiles: tuple[int, ...]
    melded_kongs: int
    concealed_kongs: int
    n_exposed: int
    nine_gates: bool
    regular_base: dict[int, int]

    def __init__(self, hand: str | Iterable[object], melds: Iterable[object], win_tile: object,
                 self_drawn: Any, last_copy: Any, last_tile: Any, kong_win: Any,
                 seat_wind: Any, prevalent_wind: Any, flowers: Any) -> None:
        standing = _standing_tiles(hand)
        meld_list = [m if type(m) is Meld else meld_of(m, InvalidHandError) for m in melds]
        win = _KIND_TO_ID.get(win_tile, -1) if not isinstance(win_tile, bool) else -1
        if win < 0:
            win = tile_kind(win_tile, "win_tile", InvalidHandError)
        if not (type(self_drawn) is bool and type(last_copy) is bool
                and type(last_tile) is bool and type(kong_win) is bool):
            for value, name in ((self_drawn, "self_drawn"), (last_copy, "last_copy"),
                                (last_tile, "last_tile"), (kong_win, "kong_win")):
                flag(value, name, InvalidHandError)
        if not (type(seat_wind) is int and 0 <= seat_wind <= 3 and type(prevalent_wind) is int
                and 0 <= prevalent_wind <= 3 and type(flowers) is int and 0 <= flowers <= 8):
            small_int(seat_wind, "seat_wind", 3, InvalidHandError)
            small_int(prevalent_wind, "prevalent_wind", 3, InvalidHandError)
            small_int(flowers, "flowers", 8, InvalidHandError)
        self.self_drawn = self_drawn
        self.last_tile = last_tile
        self.kong_win = kong_win
        self.seat_wind = seat_wind
        self.prevalent_wind = prevalent_wind
        self.flowers = flowers
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
        has_kong = concealed_kongs + melded_kongs > 0
        if max(all_counts) > 4:
            t = max(range(NUM_KINDS), key=all_counts.__getitem__)
            raise InvalidHandError(f"more than 4 copies of {CODES[t]} ({all_counts[t]})")
        if self.kong_win:
            if self.self_drawn and not has_kong:
                raise InvalidHandError("kong_win with self_drawn (杠上开花) needs a kong")
            if not self.self_drawn:
                if held_win or meld_copies_of_win:
                    raise InvalidHandError(
                        f"robbing a kong (抢杠和) is impossible while holding or having melded "
                        f"{CODES[win]}")
                if self.last_tile:
                    raise InvalidHandError(
                        "robbing a kong (抢杠和) cannot be on the last tile: a kong needs a "
                        "replacement tile")
        # 和绝张 normalised as rules §3.1: cleared when a copy is held, forced by own melds.
        if held_win:
            last_copy = False
        elif meld_copies_of_win == 3:
            last_copy = True
        self.last_copy = last_copy
        standing.append(win)
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
        self.nine_gates = False  # set with regular_base, once the hand is known complete
        self.regular_base = _NO_FANS
        self._unique_wait: bool | None = None

    def __str__(self) -> str:
        return describe_hand(self)

    def set_scoring_base(self, base: dict[int, int]) -> None:
        """Record the fans every reading shares; also the one fact only a complete hand
        needs, 九莲宝灯's 1112345678999 before the win."""
        self.regular_base = base
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
        if info[0] == 1:  # the winning tile completed the pair's group
            if len(info[4]) != 1:
                return False
        else:
            if len(info[3]) != 1:
                return False
            if info[2] and _other_group_waits(counts, start):
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
        if info[0] == 2:
            return bool(info[3])
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

