"""``WinContext``: the seven win flags as one checked value, and the two ways to pass them.

The checks live in ``WinContext`` alone: its constructor rejects bad types and ranges and the
impossible combination of the flags on their own (robbing a kong on the last tile);
``conflict`` says which combinations are impossible with a given hand (a kong-replacement win
without a kong, robbing a kong of a tile the winner holds or has melded). The calculator and
the hand analysis take either ``context=`` or the seven keywords, with the same results and the
same errors.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import pickle
import re
from pathlib import Path
from typing import Any

import pytest

from mjenv.analysis import analyze_hand, waits
from mjenv.fans import InvalidHandError, NotWinError, WinContext, calculate, calculate_all
from mjenv.fans.context import DEFAULT, UNSET
from mjenv.fans.hand import resolve_context
from mjenv.melds import Meld
from mjenv.tiles import tile_id

EXAMPLES = json.loads((Path(__file__).resolve().parents[1] / "golden" / "rule_examples.json")
                      .read_text(encoding="utf-8"))
FLAGS = ("self_drawn", "last_copy", "last_tile", "kong_win", "seat_wind", "prevalent_wind",
         "flowers")


def flags_of(context: WinContext) -> dict[str, Any]:
    return {name: getattr(context, name) for name in FLAGS}


# ------------------------------------------------------------------ the value


def test_defaults_and_value_semantics() -> None:
    c = WinContext()
    assert flags_of(c) == {"self_drawn": False, "last_copy": False, "last_tile": False,
                           "kong_win": False, "seat_wind": 0, "prevalent_wind": 0, "flowers": 0}
    assert c == DEFAULT
    assert WinContext(self_drawn=True, seat_wind=2) == WinContext(True, False, False, False, 2)
    assert hash(WinContext(flowers=3)) == hash(WinContext(flowers=3))
    assert len({WinContext(), WinContext(), WinContext(kong_win=True)}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.self_drawn = True  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(WinContext(kong_win=True, flowers=8))) == WinContext(
        kong_win=True, flowers=8)


def test_what_kong_win_means() -> None:
    assert WinContext(kong_win=True, self_drawn=True).kong_replacement
    assert not WinContext(kong_win=True, self_drawn=True).robbing_kong
    assert WinContext(kong_win=True).robbing_kong
    assert not WinContext(kong_win=True).kong_replacement
    assert not WinContext(self_drawn=True).kong_replacement
    assert not WinContext().robbing_kong


# ------------------------------------------------------------------ rejected on its own


@pytest.mark.parametrize("name", ["self_drawn", "last_copy", "last_tile", "kong_win"])
@pytest.mark.parametrize("value", [1, 0, "yes", None, 1.0])
def test_boolean_flags_must_be_bool(name: str, value: Any) -> None:
    with pytest.raises(InvalidHandError, match=f"{name} must be true or false, got {value!r}"):
        WinContext(**{name: value})


@pytest.mark.parametrize(("name", "high"), [("seat_wind", 3), ("prevalent_wind", 3),
                                            ("flowers", 8)])
def test_numbers_must_be_ints_in_range(name: str, high: int) -> None:
    for value in (-1, high + 1, True, False, 1.0, "1", None):
        with pytest.raises(InvalidHandError, match=f"{name} must be an integer 0..{high}"):
            WinContext(**{name: value})
    for value in range(high + 1):
        assert getattr(WinContext(**{name: value}), name) == value


def test_robbing_a_kong_on_the_last_tile_is_rejected() -> None:
    with pytest.raises(InvalidHandError, match="robbing a kong .* cannot be on the last tile"):
        WinContext(kong_win=True, last_tile=True)
    # a kong replacement may be the last tile (E78); robbing needs a tile left to replace
    assert WinContext(kong_win=True, last_tile=True, self_drawn=True).kong_replacement


def test_replace_checks_again() -> None:
    with pytest.raises(InvalidHandError, match="last tile"):
        dataclasses.replace(WinContext(kong_win=True), last_tile=True)
    with pytest.raises(InvalidHandError, match="flowers"):
        dataclasses.replace(WinContext(), flowers=9)
    assert dataclasses.replace(WinContext(), last_copy=True).last_copy


def test_every_valid_combination_of_the_flags_is_accepted() -> None:
    for bits in itertools.product((False, True), repeat=4):
        self_drawn, last_copy, last_tile, kong_win = bits
        if kong_win and not self_drawn and last_tile:
            with pytest.raises(InvalidHandError):
                WinContext(*bits)
        else:
            assert WinContext(*bits).kong_win == kong_win


# ------------------------------------------------------------------ rejected with a hand


def test_conflict_kong_replacement_needs_a_kong() -> None:
    replacement = WinContext(kong_win=True, self_drawn=True)
    assert replacement.conflict(False) == "kong_win with self_drawn (杠上开花) needs a kong"
    assert replacement.conflict(True) == ""
    assert replacement.conflict(True, tile_id("W1"), 3) == ""  # holding copies is fine


def test_conflict_robbing_a_kong_of_a_tile_held_or_melded() -> None:
    robbing = WinContext(kong_win=True)
    assert robbing.conflict(False) == ""  # no kong needed: the kong is another player's
    assert robbing.conflict(False, tile_id("B4"), 0) == ""
    for copies in (1, 2, 3):
        assert robbing.conflict(True, tile_id("B4"), copies) == (
            "robbing a kong (抢杠和) is impossible while holding or having melded B4")


def test_no_conflict_without_kong_win() -> None:
    for context in (WinContext(), WinContext(self_drawn=True, last_tile=True, last_copy=True)):
        assert context.conflict(False, 0, 3) == ""


@pytest.mark.parametrize(("hand", "melds", "win", "context", "message"), [
    # 杠上开花 without a kong
    ("234m567p33s88s999m", [], "8s", WinContext(self_drawn=True, kong_win=True), "needs a kong"),
    # 抢杠和 holding a copy, in the hand or in a chow or pung
    ("234m567p33s88s999m", [], "8s", WinContext(kong_win=True), "holding or having melded T8"),
    ("56m567p999m33s", [Meld.chow("W2")], "4m", WinContext(kong_win=True), "melded W4"),
    ("23p345m456s44z", [Meld.pung("B4", 3)], "4p", WinContext(kong_win=True), "melded B4"),
])
def test_calculate_rejects_the_hand_conflicts(hand: str, melds: list[Meld], win: str,
                                              context: WinContext, message: str) -> None:
    with pytest.raises(InvalidHandError, match=message):
        calculate(hand, melds, win, context=context)
    with pytest.raises(InvalidHandError, match=message):
        calculate(hand, melds, win, **flags_of(context))


# ------------------------------------------------------------------ keywords and context


def _outcome(function: Any, *args: Any, **kwargs: Any) -> Any:
    """The JSON form of a result (or of a list of them), or the error's type and message."""
    try:
        found = function(*args, **kwargs)
    except (InvalidHandError, NotWinError) as err:
        return type(err), str(err)
    return [r.to_dict() for r in found] if isinstance(found, list) else found.to_dict()


def test_keyword_and_context_forms_agree_on_the_worked_examples() -> None:
    """Every worked example under every combination of the four flags and two wind and
    flower settings: the same result (fans, total, reading) or the same error."""
    compared = errors = 0
    for ex in EXAMPLES:
        args = (ex["hand"], ex["melds"], ex["win_tile"])
        for bits in itertools.product((False, True), repeat=4):
            for seat, prevalent, flowers in ((ex["seat_wind"], ex["prevalent_wind"],
                                              ex["flowers"]), (3, 1, 2)):
                flags = dict(zip(FLAGS, (*bits, seat, prevalent, flowers), strict=True))
                try:
                    context = WinContext(**flags)
                except InvalidHandError as err:
                    with pytest.raises(InvalidHandError, match=re.escape(str(err))):
                        calculate(*args, **flags)
                    errors += 1
                    continue
                by_keywords = _outcome(calculate, *args, **flags)
                assert by_keywords == _outcome(calculate, *args, context=context)
                assert _outcome(calculate_all, *args, **flags) == _outcome(
                    calculate_all, *args, context=context)
                errors += isinstance(by_keywords, tuple)
                compared += 1
    assert compared > 1000 and 0 < errors < compared


def test_the_examples_score_with_their_context() -> None:
    for ex in EXAMPLES:
        context = WinContext(**{name: ex[name] for name in FLAGS})
        result = calculate(ex["hand"], ex["melds"], ex["win_tile"], context=context)
        assert (result.counts(), result.total) == (ex["expect"], ex["expect_total"]), ex["id"]


def test_keywords_left_out_take_the_defaults() -> None:
    hand = "1112345678999m"
    assert calculate(hand, (), "W5") == calculate(hand, (), "W5", context=WinContext())
    assert calculate(hand, (), "W5", flowers=2) == calculate(
        hand, (), "W5", context=WinContext(flowers=2))
    assert calculate(hand, (), "W5", context=None) == calculate(hand, (), "W5")


def test_context_and_keywords_together_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="either context= or the flag keywords.*self_drawn"):
        calculate("1112345678999m", (), "W5", context=WinContext(),
                  self_drawn=True)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="flowers"):
        calculate_all("1112345678999m", (), "W5", context=WinContext(),
                      flowers=0)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="context must be a WinContext"):
        calculate("1112345678999m", (), "W5", context={"self_drawn": True})  # type: ignore


def test_keyword_contexts_are_kept_but_types_still_checked() -> None:
    first = resolve_context(None, self_drawn=True, flowers=3)
    assert first is resolve_context(None, self_drawn=True, flowers=3)
    assert first == WinContext(self_drawn=True, flowers=3)
    assert resolve_context(None) is resolve_context(None, UNSET)
    # 1 == True and hash(1) == hash(True): the kept context of True must not answer for 1
    with pytest.raises(InvalidHandError, match="self_drawn must be true or false, got 1"):
        resolve_context(None, self_drawn=1, flowers=3)
    with pytest.raises(InvalidHandError, match="flowers must be an integer 0..8, got 3.0"):
        resolve_context(None, self_drawn=True, flowers=3.0)
    with pytest.raises(InvalidHandError, match="seat_wind"):
        calculate("1112345678999m", (), "W5", seat_wind=True)


# ------------------------------------------------------------------ the hand analysis


def test_analysis_takes_the_context_too() -> None:
    hand, melds = "5m", [Meld.chow("T1"), Meld.chow("B1"), Meld.pung("F1", 1), Meld.kong("F2", 2)]
    for context in (WinContext(self_drawn=True, kong_win=True, seat_wind=1, flowers=2),
                    WinContext(seat_wind=0, prevalent_wind=1), WinContext(kong_win=True)):
        flags = flags_of(context)
        assert waits(hand, melds, context=context) == waits(hand, melds, **flags)
        assert waits(hand, melds, seen="5m 5m 5m", context=context) == waits(
            hand, melds, seen="5m 5m 5m", **flags)
        assert analyze_hand("55m", melds, context=context) == analyze_hand("55m", melds,
                                                                           **flags)
    with pytest.raises(TypeError, match="not both"):
        waits(hand, melds, context=WinContext(), kong_win=True)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="not both"):
        analyze_hand(hand, melds, context=WinContext(),
                     flowers=1)  # type: ignore[call-overload]


def test_analysis_rejects_what_the_calculator_rejects() -> None:
    nine_gates = "1112345678999m"
    with pytest.raises(InvalidHandError, match="needs a kong"):
        waits(nine_gates, context=WinContext(self_drawn=True, kong_win=True))
    with pytest.raises(InvalidHandError, match="last tile"):
        analyze_hand(nine_gates, kong_win=True, last_tile=True)
    # robbing a kong of a tile the player holds: that wait cannot happen, and says why
    robbing = waits("5m", [Meld.chow("T1"), Meld.chow("B1"), Meld.pung("F1", 1),
                           Meld.kong("F2", 2)], context=WinContext(kong_win=True))
    assert robbing[0].result is None
    assert robbing[0].why_not == (
        "robbing a kong (抢杠和) is impossible while holding or having melded W5")
