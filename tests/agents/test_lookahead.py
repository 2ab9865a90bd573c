"""LookaheadAgent (spec ``lookahead``): ``rule`` with one draw of search on its own turns.

Checked here: the spec and its options; legal play in whole games; that it plays exactly as
``rule`` wherever it does not search (with one candidate it never does); and that its
departures from ``rule`` are only own-turn discards among ``rule``'s leading ones."""

from __future__ import annotations

import numpy as np
import pytest

import mjenv
from mjenv.actions import CHOW_BASE, DISCARD_BASE, WIN
from mjenv.agent import Agent, make_agent, parse_spec
from mjenv.mahjong_env import AGENTS
from mjenv_agents.lookahead import LookaheadAgent
from mjenv_agents.rule_based import RuleBasedAgent


def _decisions(hands: int, seed: int) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """Every decision (seat, observation, mask) of ``hands`` hands of four ``rule`` players."""
    out: list[tuple[int, np.ndarray, np.ndarray]] = []
    for h in range(hands):
        env = mjenv.raw_env()
        env.reset(seed=seed + h)
        players = [RuleBasedAgent(strict=True) for _ in range(4)]
        for s, p in enumerate(players):
            p.reset(s, h)
        for current in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = AGENTS.index(current)
            out.append((seat, obs["observation"].copy(), obs["action_mask"].copy()))
            env.step(int(players[seat].act(obs["observation"], obs["action_mask"])))
    return out


@pytest.fixture(scope="module")
def decisions() -> list[tuple[int, np.ndarray, np.ndarray]]:
    return _decisions(6, 4100)


def test_spec_and_options() -> None:
    assert parse_spec("lookahead") == ("mjenv_agents.lookahead:LookaheadAgent", {})
    agent = make_agent("lookahead window=0.3 candidates=3 defence=0")
    assert isinstance(agent, LookaheadAgent) and isinstance(agent, Agent)
    assert (agent.window, agent.candidates, agent.defence) == (0.3, 3, 0)
    for bad in ("window=-1", "window=nan", "candidates=0", "candidates=1.5"):
        with pytest.raises(ValueError, match="lookahead: "):
            make_agent(f"lookahead {bad}")


def test_one_candidate_is_rule(decisions: list[tuple[int, np.ndarray, np.ndarray]]) -> None:
    """With one candidate nothing is searched: every decision is ``rule``'s."""
    rule = RuleBasedAgent(strict=True)
    plain = LookaheadAgent(candidates=1, strict=True)
    for seat, obs, mask in decisions:
        rule.reset(seat)
        plain.reset(seat)
        assert plain.act(obs, mask) == rule.act(obs, mask)
    assert plain.searched == plain.departures == 0


def test_departs_only_on_own_discards(
        decisions: list[tuple[int, np.ndarray, np.ndarray]]) -> None:
    """Where the two differ, both answers are discards of an own turn, and the searched turns
    include every departure; some turns are searched and some discards change."""
    rule = RuleBasedAgent(strict=True)
    agent = LookaheadAgent(strict=True)
    differ = 0
    for seat, obs, mask in decisions:
        rule.reset(seat)
        agent.reset(seat)
        mine, theirs = agent.act(obs, mask), rule.act(obs, mask)
        assert mask[mine] == 1
        if mine != theirs:
            differ += 1
            assert DISCARD_BASE <= mine < CHOW_BASE and DISCARD_BASE <= theirs < CHOW_BASE
            assert not mask[WIN]
    assert differ == agent.departures > 0
    assert agent.searched > agent.departures


@pytest.mark.parametrize("rules", ["mcr", "botzone"])
def test_legal_in_whole_games(rules: str) -> None:
    """Four lookahead players finish hands with legal answers only, the same every time."""
    def play(seed: int) -> list[int]:
        env = mjenv.raw_env(rules=rules)
        env.reset(seed=seed)
        players = [LookaheadAgent(strict=True) for _ in range(4)]
        for s, p in enumerate(players):
            p.reset(s, seed)
        actions: list[int] = []
        for current in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            action = players[AGENTS.index(current)].act(obs["observation"], obs["action_mask"])
            assert obs["action_mask"][action] == 1
            actions.append(int(action))
            env.step(int(action))
        assert env.game is not None and env.game.result is not None
        return actions

    for seed in (1, 2):
        assert play(seed) == play(seed)
