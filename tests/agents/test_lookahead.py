"""LookaheadAgent (spec ``lookahead``): ``rule`` with one draw of search on its own turns.

Checked here: the spec and its options; legal play in whole games; that it plays exactly as
``rule`` wherever it does not search (with one candidate it never does); and that its
departures from ``rule`` are only own-turn discards among ``rule``'s leading ones."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pytest

import mjenv
from mjenv.actions import CHOW_BASE, DISCARD_BASE, WIN
from mjenv.agent import Agent, make_agent, parse_spec
from mjenv.mahjong_env import AGENTS
from mjenv_agents.lookahead import LookaheadAgent
from mjenv_agents.rule_based import RuleBasedAgent
from mjenv_agents.train.dataset import Dataset, generate


@pytest.fixture(scope="module")
def decisions() -> Dataset:
    """Every decision of 6 hands of four ``rule`` players (observation, mask, rule's action)."""
    return generate(hands=6, seed=4100)


def test_spec_and_options() -> None:
    assert parse_spec("lookahead") == ("mjenv_agents.lookahead:LookaheadAgent", {})
    agent = make_agent("lookahead window=0.3 candidates=3 defence=0")
    assert isinstance(agent, LookaheadAgent) and isinstance(agent, Agent)
    assert (agent.window, agent.candidates, agent.defence) == (0.3, 3, 0)
    for bad in ("window=-1", "window=nan", "candidates=0", "candidates=1.5"):
        with pytest.raises(ValueError, match="lookahead: "):
            make_agent(f"lookahead {bad}")


def test_one_candidate_is_rule(decisions: Dataset) -> None:
    """With one candidate nothing is searched: every decision is ``rule``'s."""
    rule = RuleBasedAgent(strict=True)
    plain = LookaheadAgent(candidates=1, strict=True)
    for obs, mask in zip(decisions.obs, decisions.mask, strict=True):
        rule.reset(0)
        plain.reset(0)
        assert plain.act(obs, mask) == rule.act(obs, mask)
    assert plain.searched == plain.departures == 0


def _side_by_side(agent: LookaheadAgent, decisions: Dataset
                  ) -> Iterator[tuple[npt.NDArray[np.bool_], int, int]]:
    """Each decision answered by ``agent`` and by a ``rule`` player, both reset first: (the
    mask, the agent's answer, ``rule``'s)."""
    rule = RuleBasedAgent(strict=True)
    for obs, mask in zip(decisions.obs, decisions.mask, strict=True):
        rule.reset(0)
        agent.reset(0)
        yield mask, agent.act(obs, mask), rule.act(obs, mask)


def test_departs_only_on_own_discards(decisions: Dataset) -> None:
    """Where the two differ, both answers are discards of an own turn, and the searched turns
    include every departure; some turns are searched and some discards change."""
    agent = LookaheadAgent(strict=True)
    differ = 0
    for mask, mine, theirs in _side_by_side(agent, decisions):
        assert mask[mine] == 1
        if mine != theirs:
            differ += 1
            assert DISCARD_BASE <= mine < CHOW_BASE and DISCARD_BASE <= theirs < CHOW_BASE
            assert not mask[WIN]
    assert differ == agent.departures > 0
    assert agent.searched > agent.departures


def test_a_departure_raises_the_searched_value(decisions: Dataset) -> None:
    """Where it departs, the discard it makes has the larger mean over the next draw (less its
    danger penalty) than ``rule``'s, measured again on the same decision."""
    agent = LookaheadAgent(strict=True)
    checked = 0
    for mask, mine, theirs in _side_by_side(agent, decisions):
        if mine == theirs:
            continue
        f = agent._facts
        assert f is not None
        hand, melds = list(f.hand), tuple(f.melds[0])
        legal = [int(a) - DISCARD_BASE for a in np.flatnonzero(mask)
                 if DISCARD_BASE <= a < CHOW_BASE]
        penalty = {x[3]: x[4] for x in agent._scored_discards(hand, melds, legal,
                                                               agent._plans(hand, melds, 5))}
        searched = []
        for tile in (mine - DISCARD_BASE, theirs - DISCARD_BASE):
            hand[tile] -= 1
            searched.append(agent._after_next_draw(hand, melds) - penalty[tile])
            hand[tile] += 1
        assert searched[0] > searched[1]
        checked += 1
    assert checked > 0


def test_the_searched_value_is_the_mean_over_the_next_draw(decisions: Dataset) -> None:
    """``_after_next_draw`` of the hand each discard leaves, at every own turn, against the
    definition written out: each unseen kind drawn (weighted by its copies), then the best of
    ``rule``'s values over the discards of the 14 tiles, never below the hand's own value; a
    kind that joins nothing (not held, no held tile of its suit within two ranks, or an honour
    not held) leaves the hand's own value."""
    agent = LookaheadAgent(strict=True)
    checked = 0
    for obs, mask in zip(decisions.obs[::7], decisions.mask[::7], strict=True):
        if not mask[DISCARD_BASE:CHOW_BASE].any():
            continue
        agent.reset(0)
        agent.act(obs, mask)  # sets the facts and the decay the values use
        f = agent._facts
        assert f is not None
        hand, melds = list(f.hand), tuple(f.melds[0])
        for t in {int(a) - DISCARD_BASE for a in np.flatnonzero(mask[:CHOW_BASE])
                  if a >= DISCARD_BASE}:
            hand[t] -= 1
            now = agent._value13(hand, melds)
            total, weight = 0.0, 0
            for u, copies in enumerate(f.unseen):
                if copies <= 0 or hand[u] >= 4:
                    continue
                near = [x for x in range(u - 2, u + 3)
                        if u < 27 and 0 <= x < 27 and x // 9 == u // 9]
                if not hand[u] and not any(hand[x] for x in near):
                    value = now
                else:
                    drawn = hand[:]
                    drawn[u] += 1
                    plans = agent._plans(drawn, melds, 5)
                    value = now
                    for x in range(34):
                        if drawn[x]:
                            drawn[x] -= 1
                            value = max(value, agent._combine(drawn, melds, plans)[0])
                            drawn[x] += 1
                total += copies * value
                weight += copies
            assert agent._after_next_draw(hand, melds) == pytest.approx(total / weight)
            hand[t] += 1
            checked += 1
    assert checked > 50


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
