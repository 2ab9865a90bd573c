"""Golden tests: the 78 worked examples of the rules (docs/rules.md §5).

The examples are data in ``tests/golden/rule_examples.json``, in the project's JSON input form
(the form ``mjenv fan --jsonl`` reads). Every example was verified with PyMahjongGB 1.4.0 when
the file was generated (``scripts/regen_rule_examples.py``); these tests check that our
calculator gives exactly the same fans, counts, total and 8-point verdict. Whether the file is
still a faithful copy of its source outside the repository is checked by
``scripts/check_shared_copies.py``, not by the test suite.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mjenv.fans import FAN_BY_ZH, calculate
from mjenv.melds import Meld

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "rule_examples.json"
EXAMPLES: list[dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
BY_ID = {ex["id"]: ex for ex in EXAMPLES}

FLAG_KEYS = ("self_drawn", "last_copy", "last_tile", "kong_win", "seat_wind", "prevalent_wind",
             "flowers")


def _flags(ex: dict[str, Any]) -> dict[str, Any]:
    return {k: ex[k] for k in FLAG_KEYS}


def _score(ex: dict[str, Any], melds_as_dicts: bool = False) -> Any:
    melds = ex["melds"] if melds_as_dicts else [Meld.from_dict(m) for m in ex["melds"]]
    return calculate(ex["hand"], melds, ex["win_tile"], **_flags(ex))


def test_all_78_examples_present() -> None:
    assert [ex["id"] for ex in EXAMPLES] == [f"E{i}" for i in range(1, 79)]


@pytest.mark.parametrize("ex", EXAMPLES, ids=[ex["id"] for ex in EXAMPLES])
def test_golden_data_is_consistent(ex: dict[str, Any]) -> None:
    """The expected fans exist in our table and their points add up to the expected total."""
    unknown = set(ex["expect"]) - set(FAN_BY_ZH)
    assert not unknown, f"fan names not in FAN_BY_ZH: {unknown}"
    total = sum(FAN_BY_ZH[zh].points * n for zh, n in ex["expect"].items())
    assert total == ex["expect_total"]
    assert ex["meets_minimum"] == (ex["expect_total"] - ex["flowers"] >= 8)
    assert ex["expect"].get("花牌", 0) == ex["flowers"]


@pytest.mark.parametrize("ex", EXAMPLES, ids=[ex["id"] for ex in EXAMPLES])
def test_rule_example(ex: dict[str, Any]) -> None:
    result = _score(ex)
    assert result.counts() == ex["expect"], f"{ex['id']} {ex['title']}"
    assert result.total == ex["expect_total"]
    assert result.meets_minimum is ex["meets_minimum"]
    assert result.flowers == ex["flowers"]
    assert sum(e.points * e.count for e in result.fans) == result.total


@pytest.mark.parametrize("ex", EXAMPLES, ids=[ex["id"] for ex in EXAMPLES])
def test_rule_example_melds_as_json_dicts(ex: dict[str, Any]) -> None:
    """calculate() accepts melds in their JSON form too, with the same result."""
    result = _score(ex, melds_as_dicts=True)
    assert result.counts() == ex["expect"]
    assert result.total == ex["expect_total"]


@pytest.mark.parametrize(("example_id", "shape"), [
    ("E7", "thirteen_orphans"),
    ("E6", "seven_pairs"),
    ("E19", "seven_pairs"),
    ("E72", "seven_pairs"),        # 七对 25 beats the 123,123,456,456 reading
    ("E13", "regular"),            # 一色双龙会 67 beats 七对 + 清一色 48
    ("E21", "honors_knitted"),
    ("E36", "honors_knitted"),
    ("E37", "honors_knitted"),
    ("E38", "knitted_straight"),
    ("E39", "knitted_straight"),
    ("E24", "regular"),
])
def test_rule_example_shape(example_id: str, shape: str) -> None:
    assert _score(BY_ID[example_id]).shape == shape

