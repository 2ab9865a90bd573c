"""Game records: every hand round-trips through JSON and replays exactly; tampering is caught."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mjenv import actions as A
from mjenv.engine import Game, Match, RuleConfig
from mjenv.engine.game import PENALIZE
from mjenv.engine.record import (
    from_json,
    load,
    load_record,
    match_record,
    record_of,
    replay,
    replay_match,
    result_json,
    save,
    to_json,
)

from .helpers import game, t
from .test_random_play import play
from .test_scenarios import CLAIMS, LOW, LOW_TAIL, _to_added_kong


def round_trip(g: Game) -> Game:
    """record -> JSON text -> replay; asserts identical events, result, scores and text."""
    text = to_json(record_of(g))
    again = replay(from_json(text))
    assert again.events == g.events
    assert again.result == g.result
    assert again.scores == g.scores
    assert again.actions == g.actions
    assert to_json(record_of(again)) == text
    return again


def test_random_hands_round_trip() -> None:
    wins = 0
    for seed in range(120):
        g = Game(seed=seed, dealer=seed % 4, prevalent_wind=(seed // 4) % 4)
        play(g, random.Random(seed), check=False, take_wins=seed % 3 != 0)
        assert g.result is not None
        wins += g.result.winner is not None
        round_trip(g)
    assert wins > 0


def test_random_hands_round_trip_in_penalize_mode() -> None:
    rules = RuleConfig(false_win="penalize")
    penalties = 0
    for seed in range(40):
        g = Game(rules=rules, seed=seed)
        play(g, random.Random(seed), check=False)
        assert g.result is not None
        penalties += g.result.penalized is not None
        rec = record_of(g)
        assert rec["rules"] == {"profile": "mcr", "false_win": "penalize"}
        assert replay(rec).rules == rules
        round_trip(g)
    assert penalties > 0


def test_an_unfinished_hand_round_trips_with_a_null_result() -> None:
    g = Game(seed=5)
    rng = random.Random(5)
    for _ in range(20):
        s = g.to_act()[0]
        g.step(s, rng.choice(g.legal_actions(s)))
    assert record_of(g)["result"] is None
    again = round_trip(g)
    # the replayed game plays on exactly like the original
    s = g.to_act()[0]
    a = g.legal_actions(s)[-1]
    assert again.step(s, a) == g.step(s, a)


def test_robbing_a_kong_round_trips() -> None:
    g = _to_added_kong()
    g.step(1, A.added_kong(t("9m")))
    g.step(3, A.WIN)
    g.step(2, A.WIN)
    assert g.result is not None and g.result.robbed
    rec = record_of(g)
    assert rec["result"]["robbed"] is True and rec["result"]["from_seat"] == 1
    assert rec["actions"][-3:] == [[1, A.added_kong(t("9m"))], [3, A.WIN], [2, A.WIN]]
    round_trip(g)


def test_a_false_win_penalty_round_trips() -> None:
    g = game(LOW, draws="1m", tail=LOW_TAIL, rules=RuleConfig(false_win="penalize"))
    g.step(0, A.discard(t("5p")))
    g.step(1, A.WIN)
    assert g.result is not None and g.result.penalized == 1
    assert record_of(g)["events"][-1]["type"] == "Penalty"
    round_trip(g)


def test_penalize_calls_are_recorded_as_a_distinct_entry() -> None:
    g = game(CLAIMS, draws="7z")
    g.step(0, A.discard(t("4m")))
    g.step(1, A.PASS)
    c = g.clone()
    g.penalize(2)
    assert g.actions[-1] == (2, PENALIZE) and c.actions == g.actions[:-1]
    rec = record_of(g)
    assert rec["actions"][-1] == [2, "penalize"]
    assert rec["result"]["payments"] == [10, 10, -30, 10]
    again = round_trip(g)
    assert again.scores == [10, 10, -30, 10]


def test_a_match_round_trips(tmp_path: Path) -> None:
    m = Match(seed=9)
    rng = random.Random(9)
    while not m.is_over:
        play(m.game, rng, check=False)
        m.next_hand()
    assert len(m.games) == 16
    path = tmp_path / "match.json"
    save(m, path)
    games = replay_match(load_record(path))
    assert [g.result for g in games] == m.results
    assert [g.events for g in games] == [g.events for g in m.games]


def test_files_and_an_unreadable_path(tmp_path: Path) -> None:
    g = game(CLAIMS, draws="7z")
    g.penalize(0)
    path = tmp_path / "hand.json"
    save(g, path)
    assert load(path).events == g.events
    save(record_of(g), path)
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "mjenv-hand"
    with pytest.raises(ValueError, match="cannot read"):
        load(tmp_path / "missing.json")


# ---------------------------------------------------------------- tampering


@pytest.fixture(scope="module")
def won() -> dict[str, Any]:
    """A finished hand that someone won on a discard or by self-draw."""
    for seed in range(200):
        g = Game(seed=seed)
        play(g, random.Random(seed), check=False)
        if g.result is not None and g.result.winner is not None:
            return record_of(g)
    raise AssertionError("no win in 200 random hands")


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(rec: dict[str, Any]) -> None:
        target = rec
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return edit


def _first_action(rec: dict[str, Any], action: int) -> None:
    rec["actions"][0][1] = action


def _wrong_seat(rec: dict[str, Any]) -> None:
    rec["actions"][0][0] = (rec["actions"][0][0] + 1) % 4


def _swap_the_wall_head(rec: dict[str, Any]) -> None:
    wall = rec["wall"]
    j = next(i for i in range(1, len(wall)) if wall[i] != wall[0])
    wall[0], wall[j] = wall[j], wall[0]


def _other_tile(rec: dict[str, Any]) -> None:
    e = next(e for e in rec["events"] if e["type"] == "Discard")
    e["tile"] = "W1" if e["tile"] != "W1" else "W2"


TAMPERING: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("wrong format", _set(("format",), "mjenv"), r"^format: expected 'mjenv-hand'"),
    ("wrong version", _set(("version",), 2), r"^version: this reader knows version 1, got 2"),
    ("version true", _set(("version",), True), r"^version: .*got True"),
    ("unknown field", _set(("comment",), "hi"), r"^unknown field\(s\) \['comment'\]"),
    ("missing field", lambda r: r.pop("events"), r"^missing field\(s\) \['events'\]"),
    ("unknown profile", _set(("rules", "profile"), "riichi"), r"^rules: unknown rule profile"),
    ("unknown option", _set(("rules", "dora"), 1), r"^rules: unknown option 'dora'"),
    ("bad option value", _set(("rules", "false_win"), "ignore"), r"^rules: false_win must be"),
    ("bad option type", _set(("rules", "min_points"), "8"), r"^rules: min_points must be a int"),
    ("seed", _set(("seed",), "abc"), r"^seed: expected an integer or null"),
    ("short wall", lambda r: r["wall"].pop(), r"^wall: a mcr wall has 144 tiles, got 143"),
    ("bad tile code", _set(("wall", 5), "X9"), r"^wall\[5\]: not a tile code: 'X9'"),
    ("tile id not code", _set(("wall", 7), 3), r"^wall\[7\]: not a tile code: 3"),
    ("wrong counts", lambda r: r["wall"].__setitem__(0, "H1" if r["wall"][0] != "H1" else "H2"),
     r"^wall: a mcr wall must be a permutation .*wrong counts"),
    ("other wall", _swap_the_wall_head, r"^(action \d+|events\[\d+\]|result)"),
    ("dealer out of range", _set(("dealer",), 4), r"^dealer: expected 0..3, got 4"),
    ("dealer bool", _set(("dealer",), False), r"^dealer: expected 0..3, got False"),
    ("wind", _set(("prevalent_wind",), "E"), r"^prevalent_wind: expected 0..3, got 'E'"),
    ("illegal action", lambda r: _first_action(r, A.added_kong(t("7z"))),
     r"^action 0 \(seat \d: 232 AddedKong J1\): illegal action 232"),
    ("wrong seat", _wrong_seat, r"^action 0 \(seat \d: .*\): seat \d is not to act"),
    ("action out of range", lambda r: _first_action(r, 235),
     r"^action 0: expected an action id 0..234 or 'penalize', got 235"),
    ("action name", lambda r: _first_action(r, "Win"), r"^action 0: expected an action id"),
    ("action shape", _set(("actions", 3), [1, 2, 3]), r"^action 3: expected \[seat, action id\]"),
    ("seat", _set(("actions", 2, 0), 7), r"^action 2: seat must be 0..3, got 7"),
    ("extra action", lambda r: r["actions"].append([0, 0]),
     r"^action \d+ \(seat 0: 0 Pass\): the hand is over"),
    ("missing action", lambda r: r["actions"].pop(), r"^events: \d+ recorded, the replay gives"),
    ("event tile", _other_tile, r"^events\[\d+\]: recorded \{.*\}, the replay gives"),
    ("event seat bool", _set(("events", 1, "seat"), True), r"^events\[1\]: recorded"),
    ("event extra key", _set(("events", 0, "note"), 1), r"^events\[0\]: recorded"),
    ("payments", _set(("result", "payments"), [0, 0, 0, 0]), r"^result: recorded"),
    ("fans", _set(("result", "fans"), [["清一色", 1]]), r"^result: recorded"),
    ("no result", _set(("result",), None), r"^result: recorded null"),
]


@pytest.mark.parametrize(("edit", "message"), [(e, m) for _, e, m in TAMPERING],
                         ids=[name for name, _, _ in TAMPERING])
def test_a_tampered_record_is_rejected(won: dict[str, Any],
                                       edit: Callable[[dict[str, Any]], None],
                                       message: str) -> None:
    rec = copy.deepcopy(won)
    replay(rec)  # the untouched record is fine
    edit(rec)
    with pytest.raises(ValueError, match=message):
        replay(from_json(to_json(rec)))


def test_a_recorded_result_of_an_unfinished_hand_is_rejected(won: dict[str, Any]) -> None:
    g = Game(seed=5)
    s = g.to_act()[0]
    g.step(s, g.legal_actions(s)[0])
    rec = record_of(g)
    rec["result"] = won["result"]
    with pytest.raises(ValueError, match=r"^result: .*the hand is not over after the 1 "):
        replay(rec)


def test_text_that_is_not_a_record() -> None:
    with pytest.raises(ValueError, match="^not JSON"):
        from_json("{")
    with pytest.raises(ValueError, match="^a record is a JSON object, got list"):
        from_json("[1]")


def test_a_tampered_match_is_rejected() -> None:
    rules = RuleConfig(hands_per_match=4)
    m = Match(rules, seed=3)
    rng = random.Random(3)
    while not m.is_over:
        play(m.game, rng, check=False)
        m.next_hand()
    rec = match_record(m)
    assert rec["rules"] == {"profile": "mcr", "hands_per_match": 4}
    assert len(replay_match(from_json(to_json(rec)))) == 4
    bad = copy.deepcopy(rec)
    bad["scores"][0] += 1
    with pytest.raises(ValueError, match=r"^scores: recorded"):
        replay_match(bad)
    bad = copy.deepcopy(rec)
    bad["hands"][0], bad["hands"][1] = bad["hands"][1], bad["hands"][0]
    with pytest.raises(ValueError, match=r"^hands\[0\]: dealer 1, prevalent wind 0: hand 0 has"):
        replay_match(bad)
    bad = copy.deepcopy(rec)
    bad["hands"][2]["actions"][0][1] = 234
    with pytest.raises(ValueError, match=r"^hands\[2\]: action 0 "):
        replay_match(bad)
    bad = copy.deepcopy(rec)
    bad["hands"].append(bad["hands"][0])
    with pytest.raises(ValueError, match=r"^hands: expected a list of at most 4"):
        replay_match(bad)
    bad = copy.deepcopy(rec)
    bad["hands"][1]["rules"] = {"profile": "mcr"}
    with pytest.raises(ValueError, match=r"^hands\[1\]: rules: "):
        replay_match(bad)
    with pytest.raises(ValueError, match=r"^format: expected 'mjenv-match'"):
        replay_match(rec["hands"][0])


def test_result_json_fields() -> None:
    g = game(CLAIMS, draws="7z")
    g.penalize(3)
    assert result_json(g.result) == {
        "winner": None, "from_seat": None, "self_drawn": False, "robbed": False,
        "win_tile": None, "fan_total": 0, "fans": [], "payments": [10, 10, 10, -30],
        "penalized": 3}


def test_the_docs_examples_run() -> None:
    import re

    doc = Path(__file__).resolve().parents[2] / "docs" / "engine.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 6  # blocks fenced "python no-run" are sketches with free names
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(doc), "exec"), namespace)
    assert namespace["again"].events == namespace["game"].events  # type: ignore[attr-defined]
