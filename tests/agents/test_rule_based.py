"""RuleBasedAgent (spec ``rule``): legal play in whole games of both profiles, wins taken,
and scripted situations built straight from the ``mjenv-v1`` layout."""

from __future__ import annotations

import time

import numpy as np
import pytest

import mjenv
from mjenv.actions import (
    CHOW_BASE,
    DISCARD_BASE,
    NUM_ACTIONS,
    PASS,
    PUNG_BASE,
    WIN,
    chow,
    pung,
)
from mjenv.agent import Agent, make_agent
from mjenv.encoders.default import (
    DECISION_TILE,
    DRAWN,
    HAND,
    M_CHOW,
    M_PUNG,
    MELDS,
    NUM_CHANNELS,
    PREVALENT_WIND,
    S_KIND,
    S_MELD_COUNT,
    S_OFFERER,
    S_TILES_LEFT,
    SCALARS,
    SEAT_WIND,
    UNSEEN,
)
from mjenv.mahjong_env import AGENTS
from mjenv.shanten import shanten_counts
from mjenv.tiles import EAST, NUM_KINDS, parse_tiles
from mjenv_agents.observation import read_observation
from mjenv_agents.random_agent import RandomAgent
from mjenv_agents.rule_based import RuleBasedAgent

T = NUM_KINDS
KINDS = {"draw": 0, "after_claim": 1, "claim": 2, "rob": 3}


def _obs(hand: str, *, decision: str = "draw", tile: str | None = None,
         pungs: str = "", chows: str = "", offerer: int = 3, tiles_left: int = 80
         ) -> tuple[np.ndarray, np.ndarray]:
    """An observation and mask of the own seat (East, East round) in a fresh-ish hand."""
    counts = [0] * T
    for t in parse_tiles(hand):
        counts[t] += 1
    o = np.zeros((NUM_CHANNELS, T), dtype=np.float32)
    for t in range(T):
        for k in range(counts[t]):
            o[HAND + k, t] = 1
    unseen = [4 - c for c in counts]
    n_melds = 0
    for t in parse_tiles(pungs):
        o[MELDS + M_PUNG, t] = 1
        unseen[t] -= 3
        n_melds += 1
    for t in parse_tiles(chows):  # the chow's lowest tile
        for x in (t, t + 1, t + 2):
            o[MELDS + M_CHOW, x] += 0.25
            unseen[x] -= 1
        n_melds += 1
    offered = parse_tiles(tile)[0] if tile else -1
    if offered >= 0 and decision == "claim":
        unseen[offered] -= 1
    o[UNSEEN] = np.asarray(unseen, dtype=np.float32) / 4
    o[SEAT_WIND, EAST] = 1
    o[PREVALENT_WIND, EAST] = 1
    sc = o[SCALARS]
    sc[S_TILES_LEFT] = tiles_left / 144
    sc[S_KIND + KINDS[decision]] = 1
    sc[S_MELD_COUNT] = n_melds / 4
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if decision in ("draw", "after_claim"):
        if decision == "draw" and offered >= 0:
            o[DRAWN, offered] = 1
            o[DECISION_TILE, offered] = 1
        for t in range(T):
            if counts[t]:
                mask[DISCARD_BASE + t] = 1
    else:
        o[DECISION_TILE, offered] = 1
        sc[S_OFFERER + offerer - 1] = 1
        mask[PASS] = 1
        if counts[offered] >= 2:
            mask[pung(offered)] = 1
        if offerer == 3 and offered < EAST:
            for mid in (offered - 1, offered, offered + 1):
                if mid >= EAST or not 1 <= mid % 9 <= 7 or mid // 9 != offered // 9:
                    continue
                others = [x for x in (mid - 1, mid, mid + 1) if x != offered]
                if all(counts[x] for x in others):
                    mask[chow(mid, offered)] = 1
    return o, mask


def _agent(**options: object) -> RuleBasedAgent:
    agent = RuleBasedAgent(strict=True, **options)  # type: ignore[arg-type]
    agent.reset(0, 0)
    return agent


def test_spec_and_protocol() -> None:
    agent = make_agent("rule decay=0.25 defence=0")
    assert isinstance(agent, RuleBasedAgent) and isinstance(agent, Agent)
    assert agent.decay == 0.25 and agent.defence == 0


def test_observation_helper_reads_back() -> None:
    o, mask = _obs("123m456p789s11z55z7z", decision="draw", tile="7z", pungs="6z")
    f = read_observation(o, mask)
    assert f.decision == "draw" and f.drawn == parse_tiles("7z")[0] and f.meld_count[0] == 1
    assert f.melds[0] == [("pung", parse_tiles("6z")[0])] and f.tiles_left == 80


@pytest.mark.parametrize("rules", ["mcr", "botzone"])
def test_legal_actions_in_random_games(rules: str) -> None:
    """Two rule-based players and two random ones: every answer is in the mask; the
    rule-based seats win far more often than the random ones."""
    wins = [0, 0]
    for game in range(8):
        env = mjenv.raw_env(rules=rules)
        env.reset(seed=100 + game)
        players: list[Agent] = [RuleBasedAgent(strict=True), RandomAgent(seed=game),
                                RuleBasedAgent(strict=True, defence=0),
                                RandomAgent(seed=50 + game, win_first=True)]
        for seat, p in enumerate(players):
            p.reset(seat, game)
        for current in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = AGENTS.index(current)
            action = players[seat].act(obs["observation"], obs["action_mask"])
            assert obs["action_mask"][action] == 1, (rules, game, seat, action)
            env.step(int(action))
        assert env.game is not None and env.game.result is not None
        winner = env.game.result.winner
        if winner is not None and winner >= 0:
            wins[winner % 2] += 1
    assert wins[0] > wins[1]


def test_takes_every_win() -> None:
    agent = _agent()
    o, mask = _obs("123m456p789s1155z", decision="draw", tile="5z")
    mask[WIN] = 1
    assert agent.act(o, mask) == WIN
    o, mask = _obs("123m456p789s115z", decision="claim", tile="5z", offerer=2)
    mask[WIN] = 1
    assert agent.act(o, mask) == WIN


def test_flush_plan_keeps_one_suit() -> None:
    """Mostly one suit (``s``) and honours, with stray tiles of the other suits: the discard
    never breaks the suit."""
    agent = _agent()
    for hand, drawn in (("1235789s 77s 12z 45m 9p", "9p"), ("11s 34s 67s 99s 555z 45m 8p", "8p"),
                        ("1134679s 99s 55z 3m 7p", "7p")):
        o, mask = _obs(hand, decision="draw", tile=drawn)
        tile = agent.act(o, mask) - DISCARD_BASE
        assert tile not in parse_tiles("123456789s"), hand


def test_all_pungs_plan_claims_a_pung() -> None:
    agent = _agent()
    o, mask = _obs("11m99m55p33s8p6s", decision="claim", tile="5p", pungs="3z", offerer=2)
    assert agent.act(o, mask) == pung(parse_tiles("5p")[0])


def test_no_claim_that_destroys_the_plan() -> None:
    """A half-flush hand passes a chow in another suit that a shanten count would take: the
    chow lowers the shanten but leaves no pattern worth 8 points."""
    agent = _agent()
    hand = "112335778s 33z 34m"
    o, mask = _obs(hand, decision="claim", tile="5m", offerer=3)
    claim = chow(parse_tiles("4m")[0], parse_tiles("5m")[0])
    assert mask[claim] == 1
    counts = [0] * T
    for t in parse_tiles(hand):
        counts[t] += 1
    after = counts[:]
    for t in parse_tiles("3m4m"):
        after[t] -= 1
    best_after = min(shanten_counts([c - (t == x) for x, c in enumerate(after)], 1)
                     for t in range(T) if after[t])
    assert best_after < shanten_counts(counts, 0)  # a greedy player would chow
    assert agent.act(o, mask) == PASS


def test_passes_claims_that_do_not_help() -> None:
    agent = _agent()
    o, mask = _obs("123m456p789s1155z", decision="claim", tile="6s", offerer=3)
    legal = np.flatnonzero(mask)
    assert any(CHOW_BASE <= a < PUNG_BASE for a in legal)
    assert agent.act(o, mask) == PASS


def test_prefers_a_ready_hand_that_scores() -> None:
    """Two discards leave a ready hand: one waits on a tile that only makes a plain hand
    (below 8 points), the other keeps a pure straight (16); the agent keeps the straight."""
    agent = _agent()
    # 123456789m + 55p + 78s + 2p: discard 2p -> wait 6s/9s on 清龙 (16)
    o, mask = _obs("123456789m 55p 78s 2p", decision="draw", tile="2p")
    assert agent.act(o, mask) == DISCARD_BASE + parse_tiles("2p")[0]


def test_decisions_are_fast() -> None:
    """Average decision time over whole games (the arena plays thousands of hands)."""
    agent = RuleBasedAgent(strict=True)
    total = 0.0
    count = 0
    for game in range(3):
        env = mjenv.raw_env()
        env.reset(seed=7 + game)
        others = [RandomAgent(seed=i, win_first=True) for i in range(4)]
        agent.reset(0, game)
        for current in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = AGENTS.index(current)
            if seat == 0:
                start = time.perf_counter()
                action = agent.act(obs["observation"], obs["action_mask"])
                total += time.perf_counter() - start
                count += 1
            else:
                action = others[seat].act(obs["observation"], obs["action_mask"])
            env.step(int(action))
    assert count > 0
    assert total / count < 0.02  # generous for slow CI machines; ~1-2 ms typical


def test_precomputed_chow_plans_match_the_general_ones() -> None:
    """Without own chows, _plan_fns takes each chow plan's shanten function from the
    precomputed table: the same function _chow_plan builds, on random hands."""
    from mjenv_agents import rule_based as rb

    rng = np.random.default_rng(5)
    for _ in range(200):
        counts = [0] * NUM_KINDS
        for t in rng.choice(136, size=int(rng.choice([13, 14])), replace=False):
            counts[int(t) // 4] += 1
        n = int(rng.integers(2))
        for i, (_, _, chows) in enumerate(rb._CHOW_PLANS):
            general = rb._chow_plan(chows, [], n, counts)
            if general is None:
                continue
            fast = rb._chow_fn(rb._CHOW_ITEMS[i], n + 3)
            for probe in (counts, [max(0, c - 1) for c in counts]):
                assert fast(list(probe)) == general(list(probe))
