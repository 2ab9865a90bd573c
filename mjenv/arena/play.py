"""Play one scheduled game and describe every hand of it as rows (one per hand and seat).

An agent that raises, or answers an action outside its mask, gets the profile's penalty for
that hand (−30, +10 to each other seat); the row records it (``error``) and play goes on. So
does an agent whose ``observe_events`` hook raises (mjenv.arena.feed: a Botzone bot program
that fails on a turn where its seat has no decision).
"""

from __future__ import annotations

import traceback
from typing import Any

from mjenv.agent import Agent, make_agent
from mjenv.arena.config import ArenaConfig, Task
from mjenv.arena.feed import EventFeed
from mjenv.mahjong_env import AGENTS, MahjongEnv

ROW_FIELDS = ("deal", "seating", "hand", "seat", "agent", "score", "win", "self_drawn",
              "deal_in", "draw", "points", "fans", "penalized", "error")
"""The columns of hands.csv (docs/arena.md)."""

_AGENT_CACHE: dict[tuple[str, int], Agent] = {}


def agent_for(spec: str, seat: int = 0) -> Agent:
    """One agent object per spec, seat and process (a checkpoint is loaded once per seat;
    an agent with state, such as a bot program, is never shared between seats); every game
    ``reset``s it."""
    agent = _AGENT_CACHE.get((spec, seat))
    if agent is None:
        agent = _AGENT_CACHE[spec, seat] = make_agent(spec)
    return agent


def play_task(config: ArenaConfig, task: Task) -> list[dict[str, Any]]:
    """Play ``task``; returns its rows (hand order, then seat order)."""
    env = MahjongEnv(rules=config.rules, episode=config.episode)
    env.reset(seed=task.seed)
    players = [agent_for(config.agents[i], seat) for seat, i in enumerate(task.seats)]
    names = [config.names[i] for i in task.seats]
    for seat, agent in enumerate(players):
        agent.reset(seat, task.agent_seed(seat))
    errors: dict[int, str] = {}  # hand index -> what went wrong
    rows: list[dict[str, Any]] = []
    feed = EventFeed(players)
    for current in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = AGENTS.index(current)
        hand = env.hand_index
        assert env.game is not None
        failed = feed.deliver(env.game)
        if failed:
            bad, exc = failed[0]
            detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            errors[hand] = f"seat {bad} ({names[bad]}): {detail}"
            env.penalize(AGENTS[bad])
            continue
        try:
            action = players[seat].act(obs["observation"], obs["action_mask"])
            a = int(action)
            if not 0 <= a < len(obs["action_mask"]) or obs["action_mask"][a] != 1:
                raise ValueError(f"illegal action {action!r}")
        except Exception as exc:  # noqa: BLE001 - any failure of an agent is penalized
            detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            errors[hand] = f"seat {seat} ({names[seat]}): {detail}"
            env.penalize(current)
        else:
            env.step(a)
    if env.game is not None:
        feed.deliver(env.game)  # the end of the hand: hooked agents close what they hold
    for h, result in enumerate(_results(env)):
        rows.extend(_rows(task, h, result, names, errors.get(h, "")))
    return rows


def _results(env: MahjongEnv) -> list[Any]:
    if env.match is not None:
        return list(env.match.results)
    assert env.game is not None and env.game.result is not None
    return [env.game.result]


def _rows(task: Task, hand: int, result: Any, names: list[str],
          error: str) -> list[dict[str, Any]]:
    rows = []
    winner = result.winner
    for seat in range(4):
        rows.append({
            "deal": task.deal, "seating": task.seating, "hand": hand, "seat": seat,
            "agent": names[seat], "score": int(result.payments[seat]),
            "win": int(winner == seat),
            "self_drawn": int(winner == seat and result.self_drawn),
            "deal_in": int(winner is not None and result.from_seat == seat),
            "draw": int(winner is None and result.penalized is None),
            "points": int(result.fan_total) if winner == seat else 0,
            "fans": ";".join(f"{zh}x{n}" if n > 1 else zh for zh, n in result.fans)
            if winner == seat else "",
            "penalized": int(result.penalized == seat),
            "error": error if result.penalized == seat else "",
        })
    return rows

