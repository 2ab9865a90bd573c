"""scripts/search_agent.py (the determinized-search experiment of docs/training.md): its prior
draws hands as far from ready as it says, and the agent plays legal, reproducible games."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import mjenv
from mjenv.arena import ArenaConfig, run_arena
from mjenv.engine import MCR, Game
from mjenv.engine.determinize import sample_game, uniform_hands
from mjenv.engine.events import view
from mjenv.shanten import shanten_counts


def _late_positions(count: int) -> list[tuple[Game, int]]:
    """Discard decisions with at most 45 tiles left, from random play."""
    out = []
    r = random.Random(0)
    seed = 0
    while len(out) < count:
        game = Game(MCR, seed=seed)
        seed += 1
        while not game.is_over:
            seat = game.to_act()[0]
            if game.phase == 0 and game.wall.remaining <= 45 and not any(
                    m.kind == "concealed_kong" for m in sum(game.melds, [])):
                out.append((game.clone(), seat))
                break
            legal = game.legal(seat)
            game.step(seat, legal[r.randrange(len(legal))])
    return out


def test_the_ready_prior_draws_hands_near_ready(
        load_script: Callable[[str], ModuleType]) -> None:
    script = load_script("search_agent")
    rng = np.random.default_rng(0)
    shanten: dict[str, list[int]] = {"ready": [], "uniform": []}
    for game, seat in _late_positions(25):
        events = [view(e, seat) for e in game.events]
        prior = script.ready_hands(game.wall.remaining,
                                   {s: len(game.melds[s]) for s in range(4)})
        for name, hands in (("ready", prior), ("uniform", uniform_hands)):
            world = sample_game(events, seat, rng, dealer=game.dealer,
                                prevalent_wind=game.prevalent_wind, hands=hands)
            shanten[name] += [min(shanten_counts(world.hands[s], len(world.melds[s])), 3)
                              for s in range(4) if s != seat]
    # rule players are mostly ready or one tile away this late; uniform hands almost never
    assert np.mean([s <= 1 for s in shanten["ready"]]) > 0.6
    assert np.mean([s <= 1 for s in shanten["uniform"]]) < 0.3


def test_the_search_agent_plays_reproducible_legal_games(
        load_script: Callable[[str], ModuleType], tmp_path: Path) -> None:
    load_script("search_agent")  # puts scripts/ on sys.path, where the spec is imported from
    spec = "search_agent:SearchAgent worlds=2 late=60 prior=ready safe=True seed=1"
    config = ArenaConfig(agents=(spec, "rule"), deals=1, seed=3)
    rows = []
    for run in ("a", "b"):
        results = run_arena(config, tmp_path / run, progress=False)
        assert all(row["penalties"] == 0 for row in results["agents"].values())
        rows.append((tmp_path / run / "hands.csv").read_text())
    assert rows[0] == rows[1]
    assert json.loads((tmp_path / "a" / "results.json").read_text())["deals_played"] == 1


def test_bad_options_are_one_line(load_script: Callable[[str], ModuleType]) -> None:
    script = load_script("search_agent")
    for options in ({"worlds": 1}, {"candidates": 1}, {"prior": "psychic"}):
        with pytest.raises(ValueError, match="worlds >= 2, candidates >= 2"):
            script.SearchAgent(**options)


def test_without_the_events_it_plays_rule(load_script: Callable[[str], ModuleType]) -> None:
    script = load_script("search_agent")
    agent = script.SearchAgent(worlds=2, seed=0)
    rule = script.RuleBasedAgent()
    env = mjenv.raw_env()
    env.reset(seed=4)
    agent.reset(0)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = rule.act(obs["observation"], obs["action_mask"])
        assert agent.act(obs["observation"], obs["action_mask"]) == action
        env.step(action)


def test_the_danger_measurement_scores_each_estimate(
        load_script: Callable[[str], ModuleType], capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    script = load_script("search_agent")
    got, readiness = script.danger(3, worlds=2, weigh=True, out=str(tmp_path / "rows.npz"))
    assert got["discards"] > 0 and got["fewest departures (median)"] >= 0
    kept = np.load(tmp_path / "rows.npz")
    assert kept["rows"].shape == (got["discards"], len(kept["columns"])) == (got["discards"], 9)
    assert kept["rows"][:, 0].mean() == pytest.approx(got["dangerous"])
    for name in got:
        if "weighted" in name:
            assert np.isnan(got[name]) or 0.0 <= got[name] <= 1.0
    assert sum(readiness["real"]) == sum(readiness["uniform"]) == sum(readiness["ready"]) > 0
    for name in ("ready+passed", "uniform", "rule"):
        assert np.isnan(got[name]) or 0.0 <= got[name] <= 1.0
    with pytest.raises(SystemExit) as stop:
        script.main(["danger", "--hands", "0"])
    assert stop.value.code == 2
    assert "--hands and --worlds must be at least 1" in capsys.readouterr().err


def test_the_oracle_search_pairs_each_seat_with_rule(
        load_script: Callable[[str], ModuleType], capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script("search_agent")
    gains = script.oracle(1, 0, worlds=2, late=60, candidates=2, margin=0.0, seed=0)
    assert len(gains) == 4 and all(isinstance(g, int) for g in gains)
    # told the real hands, each sampled world holds them: the prior reads the live game
    game = script.new_hand(script.MCR, 0)
    real = script._real_hands(game)([4] * 34, {1: 13, 2: 13}, np.random.default_rng(0))
    assert [sorted(real[s]) for s in (1, 2)] == [
        [t for t in range(34) for _ in range(game.hands[s][t])] for s in (1, 2)]
    with pytest.raises(SystemExit) as stop:
        script.main(["oracle", "--deals", "0"])
    assert stop.value.code == 2
    assert "--deals >= 1" in capsys.readouterr().err


def test_departures_count_where_rule_would_have_played_otherwise(
        load_script: Callable[[str], ModuleType]) -> None:
    """Four ``rule`` players: the real hand fits every decision (0); a sampled one does not."""
    script = load_script("search_agent")
    rule = script.RuleBasedAgent()
    slot = script.GameSlot(script.env_options({"rules": "mcr"}))
    slot.start(7001)
    while slot.game.wall.remaining > 60:
        seen = slot.observe(slot.seat)
        legal = slot.legal(slot.seat)
        slot.step(rule.act(seen["observation"], seen["action_mask"]) if len(legal) > 1
                  else legal[0])
    game, seat = slot.game, slot.seat
    assert script.departures(game, seat, rule) == 0
    events = [view(e, seat) for e in game.events]
    rng = np.random.default_rng(0)
    away = [script.departures(sample_game(events, seat, rng, dealer=game.dealer,
                                          prevalent_wind=game.prevalent_wind), seat, rule)
            for _ in range(3)]
    assert min(away) > 0


def test_wary_rule_scales_only_rules_danger_late_in_a_hand(
        load_script: Callable[[str], ModuleType]) -> None:
    """Before ``late`` (or told no events) it is ``rule``; late, its danger factors average 1
    over the hand's tiles, and it plays legal actions."""
    script = load_script("search_agent")
    rule = script.RuleBasedAgent()
    slot = script.GameSlot(script.env_options({"rules": "mcr"}))
    for late, worlds in ((0, 2), (60, 8)):
        wary = script.WaryRule(worlds=worlds, late=late, seed=0)
        slot.start(7001)
        for s in range(4):
            rule.reset(s)
        wary.reset(0, seed=0)
        fed = scaled = 0
        while not slot.over:
            seat, legal = slot.seat, list(slot.legal(slot.seat))
            if len(legal) == 1:
                slot.step(legal[0])
                continue
            seen = slot.observe(seat)
            action = rule.act(seen["observation"], seen["action_mask"])
            if seat == 0:
                game = slot.game
                wary.observe_events([view(e, 0) for e in game.events[fed:]], slot.view(0))
                fed = len(game.events)
                mine = wary.act(seen["observation"], seen["action_mask"])
                assert mine in legal
                if wary.scale is None:
                    assert mine == action
                else:
                    scaled += 1
                    held = [t for t in range(34) if slot.view(0).hand[t]]
                    assert wary.scale[held].mean() == pytest.approx(1.0)
                    assert (wary.scale > 0).all()
                action = mine
            slot.step(action)
        assert (scaled > 0) == (late > 0)
    with pytest.raises(ValueError, match="worlds >= 1 and floor > 0"):
        script.WaryRule(floor=0)
