"""scripts/rollout_teacher.py: its rollouts finish a hand as four ``rule`` players do, and one
collected hand holds what the estimate reads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import mjenv
from mjenv.actions import PASS
from mjenv.vector.slot import new_hand
from mjenv_agents.observation import read_observation
from mjenv_agents.rule_based import RuleBasedAgent


def _rule_game(seed: int) -> list[int]:
    """The payments of raw_env's hand ``seed`` played by four ``rule`` agents."""
    env = mjenv.raw_env()
    env.reset(seed=seed)
    agents = {name: RuleBasedAgent() for name in env.possible_agents}
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else agents[name].act(obs["observation"],
                                                             obs["action_mask"]))
    result = env.hand_result()
    assert result is not None
    return [int(result["payments"][name]) for name in env.possible_agents]


def test_a_rollout_from_the_deal_is_the_four_rule_game(
        load_script: Callable[[str], ModuleType]) -> None:
    teacher = load_script("rollout_teacher").Teacher()
    for seed in range(3):
        game = new_hand(teacher.options.rule_config, seed)
        assert list(teacher.finish(game.clone())) == _rule_game(seed)
        assert teacher.finish(game.clone()) == teacher.finish(game)  # the same tiles, every time


def test_a_collected_hand(load_script: Callable[[str], ModuleType], tmp_path: Path) -> None:
    script = load_script("rollout_teacher")
    path = script.collect(1, 5, tmp_path)
    assert path == tmp_path / "h5.npz" and script.collect(1, 5, tmp_path) == path  # kept
    data = np.load(path)
    n = len(data["q"])
    assert n > 10 and data["obs"].shape == (n, 86, 34) and data["mask"].shape == (n, 235)
    assert (data["hand"] == 5).all()
    cands, q = data["cands"], data["q"]
    payments = _rule_game(5)
    for row in range(n):
        legal = np.flatnonzero(data["mask"][row])
        real = [int(a) for a in cands[row] if a >= 0]
        assert len(real) >= 2 and len(set(real)) == len(real) and set(real) <= set(legal)
        assert q[row, 0] == payments[data["seat"][row]]  # rule's choice: the real hand
        assert np.isfinite(q[row, :len(real)]).all() and np.isnan(q[row, len(real):]).all()
    assert (cands[:, 1] == PASS).any() or (cands[:, 0] == PASS).any()  # claim windows too


def test_categories_add_up(load_script: Callable[[str], ModuleType], tmp_path: Path) -> None:
    """Each row's gain per seat-hand is its departures' A summed over the seat-hands; the
    rows' counts cover every alternative collected."""
    script = load_script("rollout_teacher")
    script.collect(1, 5, tmp_path)
    data = np.load(tmp_path / "h5.npz")
    lines = script.categories(tmp_path, min_count=1)
    seat_hands = len(np.unique(data["seat"]))
    assert lines[0].startswith(f"{len(data['q'])} decisions of 1 hands ({seat_hands} seat-hands)")
    rows = [line.strip("|").split("|") for line in lines[3:]]
    assert sum(int(r[3]) for r in rows) == int((data["cands"][:, 1:] >= 0).sum())
    gain = np.nansum(data["q"][:, 1:] - data["q"][:, :1])
    summed = sum(float(r[6]) for r in rows) * seat_hands  # each row's mean: 3 decimals
    assert summed == pytest.approx(gain, abs=0.001 * len(rows) * seat_hands)
    assert {r[0].strip() for r in rows} <= {"discard", "pass", "chow", "pung", "kong",
                                             "concealed_kong", "added_kong"}


def test_departing_is_rule_but_in_its_category(
        load_script: Callable[[str], ModuleType]) -> None:
    """``Departing`` plays ``rule``'s action except where ``rule``'s is of kind ``first`` and a
    candidate of kind ``alt`` exists; it is then that candidate, a legal action."""
    script = load_script("rollout_teacher")
    departing = script.Departing(first="discard", alt="discard", stage="middle")
    rule = RuleBasedAgent()
    env = mjenv.raw_env()
    env.reset(seed=3)
    seen = {"same": 0, "departed": 0}
    for _seat, obs in load_script("benchkit").live_turns(env):
        o, mask = obs["observation"], obs["action_mask"]
        mine, theirs = departing.act(o, mask), rule.act(o, mask)
        assert mask[mine]
        stage = script.stage_of(read_observation(o).tiles_left)
        if mine != theirs:
            assert script.action_kind(theirs) == "discard" and stage == "middle"
            seen["departed"] += 1
        else:
            seen["same"] += 1
        env.step(theirs)  # the hand goes on as four rule players play it
    assert seen["departed"] == departing.departed > 5 and seen["same"] > 20
    for bad in ({"alt": "riichi"}, {"first": "nap"}, {"stage": "endgame"}):
        with pytest.raises(ValueError, match="Departing"):
            script.Departing(**bad)


def test_bad_input_is_one_line(load_script: Callable[[str], ModuleType], tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script("rollout_teacher")
    for command in ("estimate", "categories"):
        assert script.main([command, str(tmp_path)]) == 2  # nothing collected there
        assert capsys.readouterr().err.strip() == f"error: no h*.npz in {tmp_path}"
    for argv in (["collect", "--hands", "0"], ["estimate", str(tmp_path), "--folds", "1"]):
        with pytest.raises(SystemExit):
            script.main(argv)
    assert not list(tmp_path.iterdir())  # nothing written
