"""The text of Botzone's Mahjong protocol: tile codes, request lines, response parsing.

Botzone names tiles exactly as mjenv's codes do (``W1``..``W9`` characters, ``T`` bamboo, ``B``
dots, ``F1``..``F4`` winds, ``J1``..``J3`` 中发白, ``H1``..``H8`` flowers), so a code maps to our
tile id one to one. Responses are split on single spaces, as the judge splits them: an extra
space, a lowercase word or an unknown code makes a response malformed.
"""

from __future__ import annotations

from collections.abc import Iterable

from mjenv.tiles import CODES

JUDGE_FAN_NAMES: dict[str, str] = {"坎张": "嵌张"}
"""Our fan names (mjenv.fans.table) that the judge prints differently: it lists fans with the
names of the calculator it was built with, which calls Closed Wait 嵌张."""

TILE_OF_CODE: dict[str, int] = {code: t for t, code in enumerate(CODES)}
"""Botzone tile code -> tile id (flowers included)."""


def tile_of(code: str) -> int | None:
    """The tile id of an exact Botzone code, or None."""
    return TILE_OF_CODE.get(code)


def fan_name(zh: str) -> str:
    """The judge's name of one of our fans."""
    return JUDGE_FAN_NAMES.get(zh, zh)


def tokens(response: str) -> list[str]:
    """A response split on single spaces, exactly as the judge splits it (empty tokens kept)."""
    return response.split(" ")


def codes(tiles: Iterable[int]) -> str:
    return " ".join(CODES[t] for t in tiles)


# ---------------------------------------------------------------- requests
def init_request(seat: int, quan: int) -> str:
    """``0 seat quan``: the seat's position and the prevalent wind."""
    return f"0 {seat} {quan}"


def deal_request(hand: list[int], flowers: list[list[int]]) -> str:
    """``1 f0 f1 f2 f3 <13 tiles> <every seat's flowers>``."""
    counts = " ".join(str(len(f)) for f in flowers)
    every_flower = [t for f in flowers for t in f]
    text = f"1 {counts} {codes(hand)}"
    return f"{text} {codes(every_flower)}" if every_flower else text


def draw_request(drawer: int, seat: int, tile: int) -> str:
    """``2 T`` to the drawer, ``3 p DRAW`` to the others."""
    return f"2 {CODES[tile]}" if seat == drawer else f"3 {drawer} DRAW"


def action_request(actor: int, words: str) -> str:
    """``3 p <words>``: what ``actor`` did, the same line to every seat."""
    return f"3 {actor} {words}"
