"""mjenv.analysis: the waits of a ready hand with their value, and the best discards."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mjenv.analysis import Wait, analyze_hand, best_discards, waits
from mjenv.fans import calculate
from mjenv.melds import Meld
from mjenv.shanten import analyze, shanten
from mjenv.testing import random_winning_hand
from mjenv.tiles import parse_tiles, to_counts

NINE_GATES = "1112345678999m"


def test_nine_gates_waits_and_scores() -> None:
    found = waits(NINE_GATES, self_drawn=True)
    assert [w.tile for w in found] == list(range(9))
    assert [w.total for w in found] == [107, 93, 90, 90, 92, 90, 90, 93, 107]
    assert all(w.meets_minimum for w in found)
    assert [w.unseen for w in found] == [1, 3, 3, 3, 3, 3, 3, 3, 1]
    for w in found:  # the score is the calculator's, same flags
        assert w.result == calculate(NINE_GATES, (), w.tile, self_drawn=True)


def test_the_minimum_is_reported_per_wait() -> None:
    # 混一色 6 + 幺九刻 1 on 3z is 7 without flowers; 混一色 6 + 箭刻 2 on 5z (白) is 8
    found = waits("345777p3355z", [Meld.chow(18)], flowers=3)
    assert [(w.tile, w.total, w.meets_minimum) for w in found] == [
        (29, 10, False), (33, 11, True)]


def test_seen_tiles_lower_unseen_and_give_the_last_copy() -> None:
    hand = "12m456s789p123p11z"  # edge wait on 3m
    plain = waits(hand)
    assert [(w.tile, w.unseen, w.total) for w in plain] == [(2, 4, 12)]
    last = waits(hand, seen="3m 3m 3m")
    assert [(w.tile, w.unseen, w.total) for w in last] == [(2, 1, 16)]  # + 和绝张 4
    assert "和绝张" in last[0].result.counts()  # type: ignore[union-attr]
    counts = to_counts(parse_tiles("3m 3m"))
    assert [(w.unseen, w.total) for w in waits(hand, seen_counts=counts)] == [(2, 12)]


def test_impossible_waits_say_why() -> None:
    fifth = waits("1111m", [Meld.chow(9), Meld.chow(18), Meld.pung(27, 1)])
    assert fifth == (Wait(0, 0, None, "all four copies are in the hand and melds"),)
    assert fifth[0].total is None and not fifth[0].meets_minimum
    robbing = waits("5m", [Meld.chow(9), Meld.chow(18), Meld.pung(27, 1), Meld.kong(28, 2)],
                    kong_win=True)
    assert robbing[0].result is None and "robbing a kong" in robbing[0].why_not


def test_not_ready_has_no_waits_and_fourteen_tiles_need_a_discard() -> None:
    assert waits("123m456s789p1357z") == ()
    with pytest.raises(ValueError, match="best_discards"):
        waits("11123456789999m")
    with pytest.raises(ValueError, match="a tile to discard"):
        best_discards(NINE_GATES)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"flowers": 9}, "flowers"),
        ({"seat_wind": "E"}, "seat_wind"),
        ({"self_drawn": 1}, "self_drawn"),
        ({"self_drawn": True, "kong_win": True}, "needs a kong"),
        ({"kong_win": True, "last_tile": True}, "last tile"),
    ],
)
def test_bad_flags(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        waits(NINE_GATES, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        analyze_hand("123m456s789p1357z", **kwargs)  # type: ignore[arg-type]


def test_best_discards_order() -> None:
    found = best_discards("123m456s789p11225z")
    assert [(d.tile, d.shanten) for d in found[:2]] == [(33, 0), (0, 1)]
    assert found[0].useful == (27, 28) and found[0].unseen == 4
    # the discarded copy counts as seen: discarding one of 1z 1z leaves two unseen, not three
    one_z = next(d for d in found if d.tile == 27)
    assert one_z.after.unseen_of(27) == 2
    keys = [(d.shanten, -d.unseen, -len(d.drawable), d.tile) for d in found]
    assert keys == sorted(keys)
    assert len(found) == len(set(parse_tiles("123m456s789p11225z")))
    # seen tiles change the counts, and so the order among equal shanten
    seen = best_discards("123m456s789p11225z", seen="1z 1z 2z")
    assert seen[0].tile == 33 and seen[0].unseen == 1


def test_discards_agree_with_shanten_on_random_hands() -> None:
    rng = random.Random(5)
    np_rng = np.random.default_rng(5)
    for _ in range(60):
        h = random_winning_hand(np_rng)
        tiles = [*h.hand, h.win_tile]
        own = to_counts([*tiles, *(t for m in h.melds for t in m.tiles)])
        for _ in range(rng.randrange(4)):  # swap up to three tiles
            i = rng.randrange(len(tiles))
            t = rng.randrange(34)
            if own[t] < 4:
                own[tiles[i]] -= 1
                own[t] += 1
                tiles[i] = t
        found = best_discards(tiles, h.melds)
        best = shanten(tiles, h.melds)
        assert found[0].shanten == max(best, 0)
        for d in found:
            rest = list(tiles)
            rest.remove(d.tile)
            assert d.after == analyze(rest, h.melds, seen=[d.tile])  # the discard is seen


def test_analyze_hand() -> None:
    ready = analyze_hand(NINE_GATES, self_drawn=True)
    assert ready.shanten.shanten == 0 and len(ready.waits) == 9 and ready.discards == ()
    complete = analyze_hand("11123456789999m", self_drawn=True)
    assert complete.shanten.shanten == -1 and complete.waits == ()
    first = complete.discards[0]
    assert first.tile == 8 and first.shanten == 0  # discard 9m: nine gates again
    assert [w.total for w in first.waits] == [107, 93, 90, 90, 92, 90, 90, 93, 107]
    far = analyze_hand("123m147s258p1357z")
    assert far.shanten.shanten == 2 and far.waits == () and far.discards == ()  # 全不靠


def test_the_examples_of_docs_analysis_run() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "analysis.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "docs/analysis.md", "exec"), namespace)
    info = namespace["info"]
    assert info.shanten == 4 and info.unseen_total == 46  # type: ignore[attr-defined]
    assert shanten("3455m7p66z", [Meld.chow("B1"), Meld.pung("T9", 1)]) == 1
    assert shanten("123m456s789p1357z") == 2
