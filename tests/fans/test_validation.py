"""Input validation and flag normalisation of the fan calculator.

Invalid input raises :class:`InvalidHandError` (a ``ValueError``) whose message says what is
wrong; a hand that is complete in no shape raises :class:`NotWinError` (also a ``ValueError``).
Derivable flags are normalised as docs/rules.md section 3.1 says.

Where PyMahjongGB 1.4.0 accepts the same input its result was checked when these tests were
written; the places where it silently accepts what we reject are noted per test (the issue
makes those physically impossible combinations errors, the oracle ignores or scores them).
"""

from __future__ import annotations

from typing import Any

import pytest

from mjenv.fans import InvalidHandError, NotWinError, calculate, calculate_all
from mjenv.melds import Meld
from mjenv.tiles import parse_tiles


def melds(text: str) -> list[Meld]:
    """``123m`` chow, ``555p`` pung, ``5555p`` kong, ``5555p+`` added, ``[5555p]`` concealed."""
    out = []
    for token in text.split():
        tiles = parse_tiles(token.strip("[]+"))
        if token.startswith("["):
            out.append(Meld.concealed_kong(tiles[0]))
        elif len(tiles) == 4:
            out.append(Meld.added_kong(tiles[0], 3) if token.endswith("+")
                       else Meld.kong(tiles[0], 3))
        elif len(set(tiles)) == 1:
            out.append(Meld.pung(tiles[0], 3))
        else:
            out.append(Meld.chow(tiles[0], claimed=tiles[0]))
    return out


def test_error_types() -> None:
    assert issubclass(InvalidHandError, ValueError)
    assert issubclass(NotWinError, ValueError)
    assert not issubclass(NotWinError, InvalidHandError)
    assert not issubclass(InvalidHandError, NotWinError)


# ------------------------------------------------------------------ more than 4 copies

# PyMahjongGB 1.4.0 rejects none of these: it scores them (W1111 in hand + W1 as 门前清 幺九刻 无字,
# a concealed B4 kong + B4 won as 四归一 x255 = 520 points).
@pytest.mark.parametrize(("hand", "meld_text", "win", "tile"), [
    # four W1 in the hand and a fifth as the winning tile
    ("1111m234m567p789s", "", "1m", "W1"),
    # pung + one in hand + winning tile
    ("1m234m567p789s", "111m", "1m", "W1"),
    # kong + one in hand
    ("1m234m567p789s", "1111m", "9s", "W1"),
    # concealed kong + the winning tile
    ("23p345m456s44z", "[4444p]", "4p", "B4"),
    # copies spread over three chows, the hand and the winning tile
    ("4p4p99s", "234p 345p 456p", "4p", "B4"),
    # two melds of the same tile
    ("7z", "777z 777z 123m 456m", "7z", "J1"),
])
def test_more_than_four_copies(hand: str, meld_text: str, win: str, tile: str) -> None:
    with pytest.raises(InvalidHandError, match=rf"(?i)more than 4.*{tile}|{tile}.*more than 4"):
        calculate(hand, melds(meld_text), win)


# ------------------------------------------------------------------ melds

@pytest.mark.parametrize("tiles", [
    ("W1", "W2", "W4"),      # a gap
    ("W8", "W9", "T1"),      # runs over the end of a suit
    ("F1", "F2", "F3"),      # honours cannot form a chow
    ("J1", "J2", "J3"),
    ("W1", "T2", "B3"),      # three suits
    ("W2", "W2", "W3"),      # not three different ranks
])
def test_chow_not_three_consecutive_of_one_suit(tiles: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="(?i)chow"):
        Meld("chow", tuple(parse_tiles(tiles)))
    as_dict = {"type": "chow", "tiles": list(tiles), "claimed": tiles[0], "from": 3}
    with pytest.raises(InvalidHandError, match="(?i)chow"):
        calculate("456m789p123s1z", [as_dict], "1z")


def test_meld_constructor_errors() -> None:
    with pytest.raises(ValueError, match="(?i)chow"):
        Meld.chow("W8")
    with pytest.raises(ValueError, match="(?i)chow"):
        Meld.chow("F1")
    with pytest.raises(ValueError, match="(?i)pung"):
        Meld("pung", tuple(parse_tiles("W1 W1 W2")))
    with pytest.raises(ValueError, match="(?i)kong.*4"):
        Meld("kong", tuple(parse_tiles("W1 W1 W1")))
    with pytest.raises(ValueError, match="(?i)flower"):
        Meld("pung", tuple(parse_tiles("H1 H1 H1")))
    with pytest.raises(ValueError, match="(?i)meld type"):
        Meld("triple", tuple(parse_tiles("W1 W1 W1")))


@pytest.mark.parametrize("bad", [
    {"type": "pung", "tiles": ["W1", "W1", "W2"], "claimed": "W1", "from": 2},
    {"type": "kong", "tiles": ["W1", "W1", "W1"], "claimed": "W1", "from": 2},
    {"type": "chow", "tiles": ["W1", "W2", "W3"], "claimed": "W5", "from": 3},
    {"type": "chow", "tiles": ["W1", "W2", "W3"], "claimed": "W1", "from": 1},
    {"type": "pung", "tiles": ["W1", "W1", "W1"], "claimed": "W1", "from": 4},
    {"type": "concealed_kong", "tiles": ["W1"] * 4, "claimed": None, "from": 2},
    {"type": "triple", "tiles": ["W1", "W1", "W1"], "claimed": None, "from": None},
    {"type": "pung", "tiles": ["X1", "X1", "X1"], "claimed": None, "from": 2},
    "W1 W1 W1",
])
def test_bad_meld_dicts_are_invalid(bad: Any) -> None:
    with pytest.raises(InvalidHandError, match="(?i)meld"):
        calculate("456m789p123s1z", [bad], "1z")


def test_more_than_four_melds() -> None:
    five = melds("123m 123m 456p 456p 789s")
    with pytest.raises(InvalidHandError, match="(?i)meld"):
        calculate("", five, "1z")


# ------------------------------------------------------------------ tile counts

@pytest.mark.parametrize(("hand", "meld_text"), [
    ("123m456p789s11z", ""),             # 11 tiles, no melds
    ("123m456p789s11z2z", ""),           # 12 concealed tiles with no melds
    ("123m456p789s11z222z", ""),         # 14 concealed tiles (winning tile counted twice)
    ("456p789s11z2z", "123m"),           # 9 + a meld (needs 10)
    ("456p789s11z222z", "123m"),         # 11 + a meld
    ("11z", "123m 456p 789s"),           # 2 + three melds (needs 4)
    ("", "123m 456p 789s 111z"),         # no tile besides the winning tile with four melds
    ("1z2z", "123m 456p 789s 111z"),     # 2 with four melds (needs 1)
])
def test_wrong_tile_counts(hand: str, meld_text: str) -> None:
    with pytest.raises(InvalidHandError, match="(?i)count"):
        calculate(hand, melds(meld_text), "1z")


def test_kong_counts_as_three_tiles_of_the_hand() -> None:
    # a kong replaces a pung: 13 - 3 per meld, whatever its size (E17, E50)
    assert calculate("234m567p33s88s", melds("9999m"), "8s").total == 3
    with pytest.raises(InvalidHandError, match="(?i)count"):
        calculate("234m567p33s8s", melds("9999m"), "8s")


# ------------------------------------------------------------------ flags out of range

@pytest.mark.parametrize("flowers", [-1, 9, 100, 2.0, "2", None, True])
def test_flowers_outside_0_to_8(flowers: Any) -> None:
    with pytest.raises(InvalidHandError, match="(?i)flower"):
        calculate("19m19s19p1234567z", (), "7z", flowers=flowers)


@pytest.mark.parametrize("flowers", range(9))
def test_flowers_0_to_8_are_valid(flowers: int) -> None:
    result = calculate("19m19s19p1234567z", (), "7z", flowers=flowers)
    assert result.total == 88 + flowers
    assert result.flowers == flowers
    assert result.counts().get("花牌", 0) == flowers


@pytest.mark.parametrize("name", ["seat_wind", "prevalent_wind"])
@pytest.mark.parametrize("value", [-1, 4, 27, "E", None, 1.0, True])
def test_winds_outside_0_to_3(name: str, value: Any) -> None:
    with pytest.raises(InvalidHandError, match=name):
        calculate("19m19s19p1234567z", (), "7z", **{name: value})


@pytest.mark.parametrize("name", ["self_drawn", "last_copy", "last_tile", "kong_win"])
@pytest.mark.parametrize("value", [1, "yes", None])
def test_boolean_flags_must_be_booleans(name: str, value: Any) -> None:
    with pytest.raises(InvalidHandError, match=name):
        calculate("19m19s19p1234567z", (), "7z", **{name: value})


def test_unknown_flag() -> None:
    misspelt: dict[str, Any] = {"is_self_drawn": True}
    with pytest.raises((InvalidHandError, TypeError), match="is_self_drawn"):
        calculate("19m19s19p1234567z", (), "7z", **misspelt)


# ------------------------------------------------------------------ flowers and bad tiles

@pytest.mark.parametrize("hand", [
    "19m19s19p123456z H1",
    ["W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1", "J2", "H8"],
    [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 34],  # id 34 = H1
])
def test_flower_in_hand(hand: Any) -> None:
    with pytest.raises(InvalidHandError, match="(?i)flower"):
        calculate(hand, (), "J3")


def test_flower_as_winning_tile() -> None:
    with pytest.raises(InvalidHandError, match="(?i)flower"):
        calculate("19m19s19p1234567z", (), "H1")


@pytest.mark.parametrize("hand", [
    "19m19s19p123456z X1",
    "19m19s19p123456z 8z",       # there is no 8z
    "09m19s19p1234567z",          # no red fives in MCR
    ["W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1", "J2", "W10"],
    ["W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1", "J2", 42],
    ["W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1", "J2", -1],
    ["W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1", "J2", None],
])
def test_bad_tile_codes_in_hand(hand: Any) -> None:
    with pytest.raises(InvalidHandError, match="(?i)tile"):
        calculate(hand, (), "J3")


@pytest.mark.parametrize("win", ["W0", "Z1", "", 42, -1, True, "中中"])
def test_bad_winning_tile(win: Any) -> None:
    with pytest.raises(InvalidHandError, match="(?i)tile"):
        calculate("19m19s19p123456z", (), win)


def test_winning_tile_required() -> None:
    with pytest.raises(InvalidHandError, match="win_tile"):
        calculate("19m19s19p123456z", ())


def test_error_message_names_the_bad_token() -> None:
    with pytest.raises(InvalidHandError, match="X1"):
        calculate("19m19s19p123456z X1", (), "J3")


# ------------------------------------------------------------------ impossible flag combinations

def test_kong_replacement_win_without_a_kong() -> None:
    # PyMahjongGB ignores the flag (不求人 双暗刻 幺九刻 无字 = 8); the issue makes it an error
    with pytest.raises(InvalidHandError, match="(?i)kong"):
        calculate("234m567p33s88s999m", (), "8s", self_drawn=True, kong_win=True)


@pytest.mark.parametrize(("hand", "meld_text", "win"), [
    # holding a copy of the robbed tile (PyMahjongGB ignores 抢杠和: 门前清 + 幺九刻 + 无字)
    ("234m567p33s88s999m", "", "8s"),
    ("234m567p33s88s", "9999m", "8s"),
    # having melded a copy in a chow
    ("56m567p999m33s", "234m", "4m"),
    # having melded a pung of it (nobody else can hold the three copies needed to add a kong)
    ("23p345m456s44z", "444p", "4p"),
])
def test_robbing_a_kong_while_holding_or_melding_a_copy(hand: str, meld_text: str,
                                                        win: str) -> None:
    with pytest.raises(InvalidHandError, match="(?i)rob|抢杠和"):
        calculate(hand, melds(meld_text), win, kong_win=True)


def test_robbing_a_kong_on_the_last_tile() -> None:
    # PyMahjongGB scores 海底捞月 + 抢杠和 (18); a robbed kong always has a replacement to draw
    with pytest.raises(InvalidHandError, match="(?i)last"):
        calculate("456m78p234s99s", melds("777z"), "9p", kong_win=True, last_tile=True)


def test_kong_replacement_on_the_last_tile_is_valid() -> None:
    # E78: self-drawn kong replacement that is also the last wall tile scores both
    result = calculate("234m567p33s88s", melds("9999m"), "8s", self_drawn=True, kong_win=True,
                       last_tile=True)
    assert result.counts() == {"妙手回春": 1, "杠上开花": 1, "幺九刻": 1, "明杠": 1, "无字": 1}
    assert result.total == 19


# ------------------------------------------------------------------ not a win

@pytest.mark.parametrize(("hand", "meld_text", "win"), [
    ("123m456p789s11z23z", "", "3z"),
    ("123m456p789s11z23m", "", "9p"),
    ("19m19s19p1234667z", "", "7z"),     # thirteen orphans without 白, two pairs
    ("147m258p369s1233z", "", "5z"),     # knitted straight + honours with a pair: no shape
    ("1155m3377p22s222z", "", "5z"),     # pairs and a pung: neither seven pairs nor regular
    ("456p789s11z23z", "123m", "4z"),
    ("1z", "123m 456p 789s 111z", "2z"),
])
def test_incomplete_hand_raises_not_win(hand: str, meld_text: str, win: str) -> None:
    with pytest.raises(NotWinError, match="(?i)complete|win"):
        calculate(hand, melds(meld_text), win)
    with pytest.raises(NotWinError):
        calculate_all(hand, melds(meld_text), win)


# ------------------------------------------------------------------ flag normalisation (§3.1)
# Each expected result below is PyMahjongGB's for the same input.

def test_last_copy_cleared_when_the_winner_holds_a_copy() -> None:
    # E74 with the pair T3 held: the flag cannot be true, PyMahjongGB ignores it
    result = calculate("234m678p555z123s3s", (), "3s", last_copy=True)
    assert result.counts() == {"箭刻": 1, "门前清": 1, "边张": 1}
    assert result.total == 5


def test_last_copy_set_by_the_caller_when_nothing_is_held() -> None:
    result = calculate("234m678p555z22z12s", (), "3s", last_copy=True)  # E74
    assert result.counts() == {"五门齐": 1, "和绝张": 1, "箭刻": 1, "门前清": 1, "边张": 1}
    assert calculate("234m678p555z22z12s", (), "3s").counts().get("和绝张") is None


def test_last_copy_on_a_self_draw() -> None:
    result = calculate("234m678p555z22z12s", (), "3s", last_copy=True, self_drawn=True)
    assert result.counts() == {"五门齐": 1, "不求人": 1, "和绝张": 1, "箭刻": 1, "边张": 1}
    assert result.total == 17


def test_last_copy_forced_by_a_melded_pung() -> None:
    # E62: the winner's own B4 pung shows three copies, the flag is not needed
    for flag in (False, True):
        result = calculate("23p345m456s44z", melds("444p"), "4p", last_copy=flag)
        assert result.counts() == {"三色三步高": 1, "和绝张": 1, "四归一": 1}
        assert result.total == 12


def test_last_copy_forced_by_three_melded_chows() -> None:
    # B234 B345 B456 melded: three copies of B4 face up in the winner's own melds
    result = calculate("35p99s", melds("234p 345p 456p"), "4p")
    assert result.counts() == {"一色三步高": 1, "和绝张": 1, "平和": 1, "四归一": 1, "一般高": 1,
                               "缺一门": 1, "坎张": 1}
    assert result.total == 27


def test_last_copy_with_two_melded_copies_follows_the_flag() -> None:
    with_flag = calculate("56p345m99s", melds("234p 345p"), "4p", last_copy=True)
    without = calculate("56p345m99s", melds("234p 345p"), "4p")
    assert with_flag.counts() == {"一色三步高": 1, "和绝张": 1, "平和": 1, "喜相逢": 1}
    assert with_flag.total == 23
    assert without.counts() == {"一色三步高": 1, "平和": 1, "喜相逢": 1}
    assert without.total == 19


def test_robbing_a_kong_never_scores_last_copy() -> None:
    # E51
    robbed = calculate("456m78p234s99s", melds("777z"), "9p", kong_win=True, last_copy=True)
    assert robbed.counts() == {"抢杠和": 1, "箭刻": 1}
    assert robbed.total == 10
    # the same tile won as an ordinary discard keeps 和绝张
    plain = calculate("456m78p234s99s", melds("777z"), "9p", last_copy=True)
    assert plain.counts() == {"和绝张": 1, "箭刻": 1}


def test_kong_win_means_replacement_when_self_drawn_and_robbing_otherwise() -> None:
    replacement = calculate("234m567p33s88s", melds("9999m"), "8s", self_drawn=True,
                            kong_win=True)  # E50
    assert replacement.counts() == {"杠上开花": 1, "幺九刻": 1, "明杠": 1, "无字": 1}
    robbed = calculate("456m78p234s99s", melds("777z"), "9p", kong_win=True)  # E51
    assert robbed.counts() == {"抢杠和": 1, "箭刻": 1}


@pytest.mark.parametrize(("kong", "expect", "total"), [
    ("[9999m]", {"杠上开花": 1, "不求人": 1, "双暗刻": 1, "暗杠": 1, "幺九刻": 1, "无字": 1}, 18),
    ("9999m+", {"杠上开花": 1, "幺九刻": 1, "明杠": 1, "无字": 1}, 11),
])
def test_replacement_win_after_any_kind_of_kong(kong: str, expect: dict[str, int],
                                                total: int) -> None:
    result = calculate("234m567p33s88s", melds(kong), "8s", self_drawn=True, kong_win=True)
    assert result.counts() == expect
    assert result.total == total


def test_last_tile_means_draw_when_self_drawn_and_claim_otherwise() -> None:
    hand, meld_list = "567m234p45s11z", melds("234m")
    flags: dict[str, Any] = {"last_tile": True, "seat_wind": 1, "prevalent_wind": 2}
    assert calculate(hand, meld_list, "6s", self_drawn=True, **flags).counts() == {
        "妙手回春": 1, "喜相逢": 1, "连六": 1}  # E48
    assert calculate(hand, meld_list, "6s", **flags).counts() == {
        "海底捞月": 1, "喜相逢": 1, "连六": 1}  # E49


def test_robbing_with_flowers() -> None:
    result = calculate("456m78p234s99s", melds("777z"), "9p", kong_win=True, flowers=8)
    assert result.counts() == {"抢杠和": 1, "箭刻": 1, "花牌": 8}
    assert result.total == 18
    assert result.meets_minimum is True
