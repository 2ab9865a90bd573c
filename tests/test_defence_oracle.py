"""scripts/defence_oracle.py: the game's own answer to "which discards can an opponent win on",
and a short run of the measurement."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np
import pytest

import mjenv
from mjenv.actions import DISCARD_BASE, WIN
from mjenv_agents.rule_based import RuleBasedAgent


def test_dangerous_tiles_are_the_discards_an_opponent_may_win_on(
        load_script: Callable[[str], ModuleType]) -> None:
    oracle = load_script("defence_oracle")
    env = mjenv.raw_env()
    checked = found = 0
    for seed in range(6):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            game, seat = env.game, env.agents.index(agent)
            assert game is not None
            legal = game.legal_actions(seat)
            discards = [a - DISCARD_BASE for a in legal if DISCARD_BASE <= a < DISCARD_BASE + 34]
            if discards and checked < 400:
                exact = oracle.dangerous_tiles(game, seat, "exact")
                assert exact <= oracle.dangerous_tiles(game, seat, "shape")
                for t in discards[:6]:  # the answer, tile by tile, from a clone of the game
                    trial = game.clone()
                    trial.step(seat, DISCARD_BASE + t)
                    wins = any(WIN in trial.legal_actions(s) for s in trial.to_act() if s != seat)
                    assert (t in exact) == wins
                checked += 1
                found += len(exact)
            env.step(legal[-1] if legal[-1] < DISCARD_BASE + 34 else legal[0])
    assert checked > 100 and found > 0


def test_defence_oracle_smoke(load_script: Callable[[str], ModuleType],
                              capsys: pytest.CaptureFixture[str]) -> None:
    oracle = load_script("defence_oracle")
    assert oracle.main(["--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "guarded - rule" in out and "guarded deal-in" in out
    assert oracle.main(["--deals", "2", "--waits", "ready"]) == 0
    assert capsys.readouterr().out.startswith("--waits ready: 2 deals")
    assert oracle.main(["--deals", "2", "--waits", "shape", "--flip", "0.2"]) == 0
    assert capsys.readouterr().out.startswith("--waits shape --flip 0.2: 2 deals")
    for bad in (["--flip", "0.7"], ["--flip", "0.1", "--waits", "ready"]):
        with pytest.raises(SystemExit):
            oracle.main(["--deals", "2", *bad])
    timely = oracle.TimelyGuarded()
    assert timely._threat(None) == 0.0  # told no opponent is ready: no defence at all
    timely.ready = True
    assert timely._threat(None) == 1.5  # rule's largest threat


def test_a_noisy_reading_flips_each_label_with_its_chance(
        load_script: Callable[[str], ModuleType]) -> None:
    oracle = load_script("defence_oracle")
    danger, held = {1, 2}, [1, 2, 3, 4, 5]
    rng = np.random.default_rng(0)
    assert oracle.noisy(danger, held, 0.0, rng) is danger
    wrong = [len(oracle.noisy(danger, held, 0.3, rng) ^ danger) for _ in range(2000)]
    assert abs(sum(wrong) / (2000 * len(held)) - 0.3) < 0.02
    assert all(oracle.noisy(danger, held, 0.3, rng) <= set(held) for _ in range(50))


def test_told_nothing_the_guards_are_rule_without_defence(
        load_script: Callable[[str], ModuleType]) -> None:
    """With no dangerous tile (``Guarded``) or no opponent ready (``TimelyGuarded``) each plays
    exactly as ``rule defence=0``: the overrides change only what they are told."""
    oracle = load_script("defence_oracle")
    env = mjenv.raw_env()
    env.reset(seed=4)
    players = [RuleBasedAgent() for _ in range(4)]
    guards = [oracle.Guarded(), oracle.TimelyGuarded(), RuleBasedAgent(defence=0)]
    for s, p in enumerate(players):
        p.reset(s, seed=4)
    for g in guards:
        g.reset(0, seed=4)
    checked = 0
    for seat, obs in oracle.live_turns(env):
        action = players[seat].act(obs["observation"], obs["action_mask"])
        if seat == 0:
            o, mask = obs["observation"], obs["action_mask"]
            assert len({g.act(o, mask) for g in guards}) == 1
            checked += 1
        env.step(action)
    assert checked > 10
    with pytest.raises(SystemExit):
        oracle.main(["--deals", "1"])
