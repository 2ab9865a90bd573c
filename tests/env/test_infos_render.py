"""End-of-hand infos a replay buffer can store (flat numbers; the full result by a method), and
``render_mode="human"`` printing the table as the hand is played (issue 17)."""

from __future__ import annotations

import numpy as np
import pytest

import mjenv
from mjenv.mahjong_env import AGENTS, INFO_KEYS, end_info, result_info
from mjenv.single_agent import SingleAgentEnv


def play(env: object, seed: int) -> dict[str, dict[str, object]]:
    """A hand with Win when offered, else the last legal action; each agent's final info."""
    env.reset(seed=seed)  # type: ignore[attr-defined]
    final = {}
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, _, term, trunc, info = env.last()  # type: ignore[attr-defined]
        if term or trunc:
            final[agent] = info
            env.step(None)  # type: ignore[attr-defined]
            continue
        assert info == {} or env.match is not None  # type: ignore[attr-defined]
        mask = obs["action_mask"]
        env.step(1 if mask[1] else int(np.flatnonzero(mask)[-1]))  # type: ignore[attr-defined]
    return final


def test_end_infos_are_flat_numbers() -> None:
    env = mjenv.raw_env()
    kinds = set()
    for seed in range(30):
        final = play(env, seed)
        result = env.hand_result()
        for s, a in enumerate(AGENTS):
            info = final[a]
            assert tuple(info) == INFO_KEYS
            assert all(type(v) in (int, bool) for v in info.values())
            np.asarray(list(info.values()), dtype=np.float64)  # storable as one numeric row
            assert info["seat"] == s and info["score"] == result["payments"][a]
            assert info["won"] == (result["winner"] == a)
            assert info["dealt_in"] == (result["discarder"] == a and result["winner"] != a)
            assert info["self_drawn"] == (info["won"] and result["self_drawn"])
            assert info["fan_points"] == (result["total"] if result["winner"] else 0)
            assert info["exhaustive_draw"] == (result["winner"] is None
                                               and result["penalized"] is None)
            assert info["winner_seat"] == (-1 if result["winner"] is None
                                           else AGENTS.index(result["winner"]))
        kinds.add("draw" if final[AGENTS[0]]["exhaustive_draw"] else
                  "self_drawn" if result["self_drawn"] else "discard")
    assert kinds == {"draw", "self_drawn", "discard"}


def test_hand_result_is_the_full_result() -> None:
    env = mjenv.raw_env(episode="match")
    with pytest.raises(ValueError, match="no hand"):
        env.hand_result()
    env.reset(seed=5)
    with pytest.raises(ValueError, match="no hand"):
        env.hand_result()
    play(env, 5)
    assert env.match is not None
    for h, r in enumerate(env.match.results):
        assert env.hand_result(h) == result_info(r)
        assert end_info(r, 0, h)["score"] == r.payments[0]
    assert env.hand_result() == env.hand_result(15)
    for bad in (16, -17, True, "0", 1.0):
        with pytest.raises(ValueError, match="hand must be"):
            env.hand_result(bad)  # type: ignore[arg-type]


def test_raw_env_human_mode_prints_on_reset_and_every_step(
        capsys: pytest.CaptureFixture[str]) -> None:
    env = mjenv.raw_env(render_mode="human")
    env.reset(seed=0)
    assert capsys.readouterr().out.count("tiles left") == 1
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
        assert capsys.readouterr().out.count("tiles left") == 1, agent
    assert env.render() is None and "tiles left" in capsys.readouterr().out
    ansi = mjenv.raw_env(render_mode="ansi")
    ansi.reset(seed=0)
    assert "tiles left" in str(ansi.render()) and capsys.readouterr().out == ""


def test_single_agent_human_mode_prints_the_learners_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    env = SingleAgentEnv(seat=1, render_mode="human")
    obs, _ = env.reset(seed=0)
    out = capsys.readouterr().out
    assert out.count("tiles left") == 1 and "seat 1" in out.split("you")[0].splitlines()[-1]
    done = False
    while not done:
        obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert capsys.readouterr().out.count("tiles left") == 1
    with pytest.raises(ValueError, match="render_mode"):
        SingleAgentEnv(render_mode="rgb")
    quiet = SingleAgentEnv(render_mode="rgb_array")  # SB3's make_vec_env default: no image
    quiet.reset(seed=0)
    assert quiet.render() is None and capsys.readouterr().out == ""
