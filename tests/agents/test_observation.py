"""``mjenv_agents.observation.read_observation`` decodes mjenv-v1 back into the seat's facts: every
decision of random games is decoded and compared with the env's own ``SeatView`` of the seat."""

from __future__ import annotations

import numpy as np
import pytest

import mjenv
from mjenv.mahjong_env import SEAT_OF
from mjenv.melds import CONCEALED_KONG
from mjenv_agents.observation import _chows, read_observation

GAMES = 12


def _expected_melds(view, seat: int, r: int) -> tuple[list[tuple[str, int]], int]:
    s = (seat + r) % 4
    known, hidden = [], 0
    for m in view.melds[s]:
        if m.kind == CONCEALED_KONG and m.tiles[0] < 0:
            hidden += 1
        else:
            known.append((m.kind, m.tiles[0]))
    return sorted(known), hidden


def _check(env, agent: str, obs: np.ndarray, mask: np.ndarray) -> None:
    seat = SEAT_OF[agent]
    view = env.view(agent)
    f = read_observation(obs, mask)
    assert f.num_tiles == env.rules.num_tiles
    assert f.hand == list(view.hand)
    assert f.drawn == view.drawn
    assert f.unseen == list(view.unseen)
    assert f.seat_wind == view.seat_wind
    assert f.prevalent_wind == view.prevalent_wind
    assert f.dealer == (view.dealer - seat) % 4
    assert f.tiles_left == view.tiles_left
    assert f.over == view.over
    assert f.win_legal == bool(mask[1])
    assert f.legal == np.flatnonzero(mask).tolist()
    for r in range(4):
        s = (seat + r) % 4
        known, hidden = _expected_melds(view, seat, r)
        assert sorted(f.melds[r]) == known
        assert f.hidden_kongs[r] == hidden
        if r == 0:
            assert hidden == 0
        assert f.meld_count[r] == len(view.melds[s])
        assert f.discards[r] == list(view.river_counts[s])
        assert f.claimed[r] == list(view.claimed_counts[s])
        assert f.last_discards[r] == view.river[s][::-1][:8]
        assert f.river_len[r] == min(len(view.river[s]), 32)
        assert f.flowers[r] == len(view.flowers[s])
        if env.rules.wall_layout == "per_seat":
            assert f.part_left[r] == view.seat_tiles_left(s)
    asked = bool(mask.any())
    if not asked:
        assert f.decision == "none"
        return
    if view.claim_tile >= 0 and view.claim_from != seat:
        assert f.decision == ("rob" if view.claim_rob else "claim")
        assert f.decision_tile == view.claim_tile
        assert f.offerer == (view.claim_from - seat) % 4
    elif view.drawn >= 0:
        assert f.decision == "draw"
        assert f.decision_tile == view.drawn
        assert f.offerer == -1
    else:
        assert f.decision == "after_claim"
        assert f.decision_tile == -1
        assert f.offerer == -1


@pytest.mark.parametrize("rules", ["mcr", "botzone"])
def test_decoded_facts_match_the_seat_view(rules: str) -> None:
    rng = np.random.default_rng(7)
    kinds: set[str] = set()
    for game in range(GAMES):
        env = mjenv.raw_env(rules=rules)
        env.reset(seed=game)
        for agent in env.agent_iter():
            o, _, term, trunc, _ = env.last()
            obs, mask = o["observation"], o["action_mask"]
            _check(env, agent, obs, mask)
            kinds.add(read_observation(obs, mask).decision)
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(mask)
            # rarely win, so hands run long and see kongs and late walls
            if mask[1] and rng.random() < 0.5:
                env.step(1)
            else:
                choices = [a for a in legal if a != 1] or list(legal)
                env.step(int(rng.choice(choices)))
    assert {"draw", "claim", "after_claim"} <= kinds


def test_every_seat_each_step() -> None:
    """Also observations of seats not asked (decision "none") and at the end."""
    rng = np.random.default_rng(3)
    env = mjenv.raw_env()
    env.reset(seed=11)
    for agent in env.agent_iter():
        for other in env.agents:
            o = env.observe(other)
            _check(env, other, o["observation"], o["action_mask"])
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_chows_decode_greedily() -> None:
    counts = [0] * 34
    for first in (0, 0, 1, 2, 9, 24):  # W123 W123 W234 W345 T123 B789
        for t in range(first, first + 3):
            counts[t] += 1
    assert _chows(counts) == [("chow", t) for t in (0, 0, 1, 2, 9, 24)]
    with pytest.raises(ValueError):
        _chows([1] + [0] * 33)


def test_num_tiles_given_and_shape_checked() -> None:
    env = mjenv.raw_env()
    env.reset(seed=1)
    o = env.observe(env.agent_selection)
    assert read_observation(o["observation"], num_tiles=144).tiles_left == \
        read_observation(o["observation"]).tiles_left
    with pytest.raises(ValueError):
        read_observation(o["observation"], num_tiles=100)
    with pytest.raises(ValueError):
        read_observation(o["observation"][:80])


def test_action_layout_matches_the_engine() -> None:
    from mjenv import actions as A
    from mjenv_agents import observation as ob

    for name in ("PASS", "WIN", "DISCARD_BASE", "CHOW_BASE", "PUNG_BASE", "KONG_BASE",
                 "CONCEALED_KONG_BASE", "ADDED_KONG_BASE", "NUM_ACTIONS"):
        assert getattr(ob, name) == getattr(A, name), name
    for a in range(A.CHOW_BASE, A.PUNG_BASE):
        middle, claimed = A.decode_chow(a)
        assert ob.decode_chow(a) == (middle, claimed)
        assert ob.chow_action(middle, claimed) == a
