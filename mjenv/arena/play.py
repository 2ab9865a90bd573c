"""Play one scheduled game and describe every hand of it as rows (one per hand and seat).

An agent that raises, or answers an action outside its mask, gets the profile's penalty for
that hand (−30, +10 to each other seat); the row records it (``error``) and play goes on. So
does an agent whose ``observe_events`` hook raises (mjenv.arena.feed: a Botzone bot program
that fails on a turn where its seat has no decision). :func:`play_game` also returns each
penalty with its traceback (a :class:`Failure`), for the runner to report and log: the
traceback exists only in the process that played the game. When the run keeps records
(mjenv.arena.records), the game's record is made here too, as JSON text, for the same reason:
the game exists only where it was played.
"""

from __future__ import annotations

import traceback
from typing import Any, NamedTuple

from mjenv.agent import Agent, make_agent, parse_spec
from mjenv.arena.config import ArenaConfig, Task
from mjenv.arena.feed import EventFeed
from mjenv.arena.records import RecordSelection, game_record
from mjenv.mahjong_env import AGENTS, MahjongEnv

ROW_FIELDS = ("deal", "seating", "hand", "seat", "agent", "score", "win", "self_drawn",
              "deal_in", "draw", "points", "fans", "penalized", "error")
"""The columns of hands.csv (docs/arena.md)."""

_AGENT_CACHE: dict[tuple[str, int], Agent] = {}


class Failure(NamedTuple):
    """A penalty: the hand (0 in a single hand) and seat it struck, the agent's display name,
    the one-line reason (the row's ``error``) and the full traceback."""

    hand: int
    seat: int
    agent: str
    error: str
    traceback: str


def build_agent(spec: str) -> Agent:
    """:func:`mjenv.agent.make_agent`, with any failure — a corrupt checkpoint, an agent's own
    error — as one ValueError naming the spec (a bad ``seed`` option said as such rather than
    in numpy's words), so that a run can build its agents before it writes anything."""
    try:
        return make_agent(spec)
    except Exception as exc:  # noqa: BLE001 - whatever the agent raises, one line
        raise ValueError(agent_failure(spec, exc)) from None


def agent_failure(spec: str, exc: BaseException) -> str:
    """The one-line message of ``spec``'s failure to build (see :func:`build_agent`)."""
    try:
        seed = parse_spec(spec)[1].get("seed")
    except ValueError:
        seed = None
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        return f"agent spec {spec!r}: seed must be a non-negative integer, got {seed!r}"
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if isinstance(exc, ValueError) and repr(spec) in text:
        return text  # make_agent's own message
    return (f"agent spec {spec!r}: cannot build it: {type(exc).__name__}"
            + (f": {text}" if text else ""))


def use_agents(agents: dict[str, Agent]) -> None:
    """Play this process's next games with freshly built ``agents`` (spec -> agent, from
    :func:`build_agent`): they replace what the cache holds for those specs, so a checkpoint
    rewritten since an earlier run in this process is read again, and none is loaded twice."""
    for key in [k for k in _AGENT_CACHE if k[0] in agents]:
        del _AGENT_CACHE[key]
    for spec, agent in agents.items():
        _AGENT_CACHE[spec, 0] = agent


def agent_for(spec: str, seat: int = 0) -> Agent:
    """One agent object per spec, seat and process (a checkpoint is loaded once per seat;
    an agent with state, such as a bot program, is never shared between seats); every game
    ``reset``s it."""
    agent = _AGENT_CACHE.get((spec, seat))
    if agent is None:
        agent = _AGENT_CACHE[spec, seat] = build_agent(spec)
    return agent


def play_task(config: ArenaConfig, task: Task) -> list[dict[str, Any]]:
    """Play ``task``; returns its rows (hand order, then seat order)."""
    return play_game(config, task)[0]


def play_game(config: ArenaConfig, task: Task, records: RecordSelection | None = None,
              ) -> tuple[list[dict[str, Any]], list[Failure], str | None]:
    """Play ``task``; returns its rows (as :func:`play_task`), its penalties, and its record
    (JSON text) when ``records`` selects the game, else None."""
    env = MahjongEnv(rules=config.rules, episode=config.episode)
    env.reset(seed=task.seed)
    players = [agent_for(config.agents[i], seat) for seat, i in enumerate(task.seats)]
    names = [config.names[i] for i in task.seats]
    for seat, agent in enumerate(players):
        agent.reset(seat, task.agent_seed(seat))
    errors: dict[int, str] = {}  # hand index -> what went wrong
    failures: list[Failure] = []
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
            errors[hand] = _failure(failures, hand, bad, names[bad], exc)
            env.penalize(AGENTS[bad])
            continue
        try:
            action = players[seat].act(obs["observation"], obs["action_mask"])
            a = int(action)
            if not 0 <= a < len(obs["action_mask"]) or obs["action_mask"][a] != 1:
                raise ValueError(f"illegal action {action!r}")
        except Exception as exc:  # noqa: BLE001 - any failure of an agent is penalized
            errors[hand] = _failure(failures, hand, seat, names[seat], exc)
            env.penalize(current)
        else:
            env.step(a)
    if env.game is not None:
        feed.deliver(env.game)  # the end of the hand: hooked agents close what they hold
    results = _results(env)
    for h, result in enumerate(results):
        rows.extend(_rows(task, h, result, names, errors.get(h, "")))
    record = None
    if records is not None and records.wants(
            task.deal, won=any(r.winner is not None for r in results),
            penalized=any(r.penalized is not None for r in results)):
        record = game_record(env)
    return rows, failures, record


def _failure(failures: list[Failure], hand: int, seat: int, name: str,
             exc: BaseException) -> str:
    """Record ``exc`` as the penalty of ``seat`` in ``hand``; returns the row's ``error``."""
    detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    error = f"seat {seat} ({name}): {detail}"
    failures.append(Failure(hand, seat, name, error, "".join(traceback.format_exception(exc))))
    return error


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

