"""The recipe table of ``mjenv.testing.recipes``: one recipe per fan, and its hands show the fan.

``test_generate.py`` checks that targeted hands are valid and complete; here our calculator
checks that they carry the fan they were built for. A recipe places the fan's pattern, but a
higher reading may absorb the fan (一色三同顺 inside 一色四同顺, 自摸 under 不求人), so a hand
counts when it scores the fan or a fan that implies it (不计, followed through the table), and
the fan itself must be scored in some of the hands. The hands are fixed by the seeds, so the
shares below are not a matter of luck.
"""

from __future__ import annotations

import numpy as np
import pytest

from mjenv.fans import FAN_BY_ZH, FANS, Fan, calculate
from mjenv.testing import RECIPES, targeted_hand, validate_hand

SEEDS = (0, 1, 2)
HANDS_PER_SEED = 10
MIN_SHARE = 0.8  # measured: at least 0.97 for every fan over these hands


def _implied_by(fan_id: int) -> set[int]:
    """Every fan that ``fan_id`` excludes, directly or through the fans it excludes."""
    out: set[int] = set()
    todo = list(FANS[fan_id - 1].implies)
    while todo:
        j = todo.pop()
        if j not in out:
            out.add(j)
            todo += FANS[j - 1].implies
    return out


IMPLIED = {fan.id: _implied_by(fan.id) for fan in FANS}


def test_every_entry_of_the_table_has_a_recipe() -> None:
    assert sorted(RECIPES) == [fan.id for fan in FANS]


@pytest.mark.parametrize("fan", FANS, ids=lambda f: f"{f.id}-{f.en}")
def test_recipe_hands_score_their_fan(fan: Fan) -> None:
    shown = scored = total = 0
    for seed in SEEDS:
        rng = np.random.default_rng([seed, fan.id])
        for _ in range(HANDS_PER_SEED):
            hand = targeted_hand(rng, fan.id)
            assert hand.target == fan.zh
            assert not validate_hand(hand), hand.describe()
            ids = {FAN_BY_ZH[zh].id for zh in calculate(*hand.args(), **hand.kwargs()).counts()}
            total += 1
            scored += fan.id in ids
            shown += fan.id in ids or any(fan.id in IMPLIED[i] for i in ids)
    assert scored > 0, f"{fan.zh}: never scored in {total} hands"
    assert shown >= MIN_SHARE * total, f"{fan.zh}: {shown} of {total} hands"


def test_a_fan_is_named_by_id_chinese_or_english_name() -> None:
    fan = FANS[20]
    hands = [targeted_hand(np.random.default_rng(3), name) for name in (fan.id, fan.zh, fan.en)]
    assert hands[0] == hands[1] == hands[2]
