"""Play one scheduled game and describe every hand of it as rows (one per hand and seat).

An agent that raises, or answers an action outside its mask, gets the profile's penalty for
that hand (−30, +10 to each other seat); the row records it (``error``) and play goes on. So
does an agent whose ``observe_events`` hook raises (mjenv.arena.feed: a Botzone bot program
that fails on a turn where its seat has no decision). :func:`play_game` also returns each
penalty with its traceback (a :class:`Failure`), for the runner to report and log: the
traceback exists only in the process that played the game. When the run keeps records
(mjenv.arena.records), the game's record is made here too, as JSON text, for the same reason:
the game exists only where it was played.

**A deal's games played together.** A policy network decides far faster for a batch of
observations than for each alone, so when an agent declares itself *batch-safe*
(``batch_safe`` true: its ``act_batch`` rows depend on their observation and mask alone, as a
network's argmax does), :func:`play_deal` plays every game of a deal side by side and hands
that agent's pending decisions to ``act_batch`` together; every other agent gets one object
per game and acts alone, as in :func:`play_game`. Which games share a batch is fixed by the
schedule (a deal's seatings, in order), never by the workers or a resumed run, so the results
stay the same however the run is split: batched inference may round differently from
one-at-a-time inference, which changes a choice only on an exact tie of two actions' scores.
"""

from __future__ import annotations

import traceback
from collections.abc import Generator, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from mjenv.agent import Agent, act_batch, make_agent, parse_spec
from mjenv.arena.config import ArenaConfig, Task
from mjenv.arena.feed import EventFeed
from mjenv.arena.records import RecordSelection, game_record
from mjenv.mahjong_env import AGENTS, MahjongEnv

ROW_FIELDS = ("deal", "seating", "hand", "seat", "agent", "score", "win", "self_drawn",
              "deal_in", "draw", "points", "fans", "penalized", "error")
"""The columns of hands.csv (docs/arena.md)."""

_AGENT_CACHE: dict[tuple[str, int, int], Agent] = {}


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
        _AGENT_CACHE[spec, 0, 0] = agent


def forget_agents() -> None:
    """Drop every agent this process holds: the next games build theirs anew."""
    _AGENT_CACHE.clear()


def agent_for(spec: str, seat: int = 0, table: int = 0) -> Agent:
    """One agent object per spec, seat, table and process (a checkpoint is loaded once per
    seat; an agent with state, such as a bot program, is never shared between seats or between
    the games of a deal played side by side, ``table`` 0, 1, ...); every game ``reset``s it."""
    agent = _AGENT_CACHE.get((spec, seat, table))
    if agent is None:
        agent = _AGENT_CACHE[spec, seat, table] = build_agent(spec)
    return agent


def batch_safe(agent: Agent) -> bool:
    """Whether ``agent`` may decide for several games in one ``act_batch`` call: it says so
    (``batch_safe`` true), has ``act_batch`` and no ``observe_events`` (a per-game history)."""
    return (bool(getattr(agent, "batch_safe", False)) and hasattr(agent, "act_batch")
            and not hasattr(agent, "observe_events"))


def batched_specs(agents: Mapping[str, Agent]) -> frozenset[str]:
    """The specs (of ``agents``, spec -> agent) whose decisions a deal's games share: those of
    the :func:`batch_safe` agents; none when an agent keeps a per-game history
    (``observe_events``: a bot program is a process per object, and playing side by side
    needs an object per game)."""
    if any(hasattr(agent, "observe_events") for agent in agents.values()):
        return frozenset()
    return frozenset(spec for spec, agent in agents.items() if batch_safe(agent))


Played = tuple[list[dict[str, Any]], list[Failure], str | None]
"""One game's rows, penalties and record (JSON text, or None when not kept)."""


class Ask(NamedTuple):
    """A decision a game hands to its batch: the spec of the batch-safe agent to act, and the
    seat's observation and mask."""

    spec: str
    observation: np.ndarray
    action_mask: np.ndarray


def play_task(config: ArenaConfig, task: Task) -> list[dict[str, Any]]:
    """Play ``task``; returns its rows (hand order, then seat order)."""
    return play_game(config, task)[0]


def play_game(config: ArenaConfig, task: Task, records: RecordSelection | None = None,
              ) -> Played:
    """Play ``task`` alone, every agent acting one decision at a time; returns its rows (as
    :func:`play_task`), its penalties, and its record (JSON text) when ``records`` selects the
    game, else None."""
    game = _game(config, task, records, table=0, batched=frozenset())
    try:
        next(game)
    except StopIteration as end:
        played: Played = end.value
        return played
    raise AssertionError("a game with no batched agent asks for nothing")


def play_deal(config: ArenaConfig, tasks: Sequence[Task],
              records: RecordSelection | None = None) -> list[Played]:
    """Play the games ``tasks`` (one deal's, in schedule order) side by side, the decisions of
    each batch-safe agent in one ``act_batch`` call per round (see the module docstring);
    one game at a time when no agent is batch-safe. The results, in order."""
    batched = batched_specs({spec: agent_for(spec) for spec in dict.fromkeys(config.agents)})
    if not batched or len(tasks) < 2:
        return [play_game(config, t, records) for t in tasks]
    games = [_game(config, t, records, table, batched) for table, t in enumerate(tasks)]
    played: list[Played | None] = [None] * len(games)
    asks: dict[int, Ask] = {}

    def advance(i: int, action: int | None = None, error: Exception | None = None) -> None:
        try:
            if error is not None:
                ask = games[i].throw(error)
            elif action is None:
                ask = next(games[i])
            else:
                ask = games[i].send(action)
        except StopIteration as end:
            played[i] = end.value
        else:
            asks[i] = ask

    for i in range(len(games)):
        advance(i)
    while asks:
        now, asks = asks, {}
        by_spec: dict[str, list[int]] = {}
        for i in sorted(now):
            by_spec.setdefault(now[i].spec, []).append(i)
        for spec, rows in by_spec.items():
            agent = agent_for(spec)
            try:
                actions = act_batch(agent, np.stack([now[i].observation for i in rows]),
                                    np.stack([now[i].action_mask for i in rows]))
                if len(actions) != len(rows):
                    raise ValueError(f"act_batch gave {len(actions)} actions for {len(rows)}")
            except Exception:  # noqa: BLE001 - find the rows that fail, one at a time
                for i in rows:
                    try:
                        action = agent.act(now[i].observation, now[i].action_mask)
                    except Exception as exc:  # noqa: BLE001 - that seat is penalized
                        advance(i, error=exc)
                    else:
                        advance(i, action)
            else:
                for i, action in zip(rows, actions, strict=True):
                    advance(i, action)
    return [p for p in played if p is not None]


def _game(config: ArenaConfig, task: Task, records: RecordSelection | None, table: int,
          batched: frozenset[str]) -> Generator[Ask, int, Played]:
    """Play ``task`` at ``table`` of its deal; each decision of a ``batched`` spec is yielded
    (an :class:`Ask`) and its action sent back (or an exception thrown in: that seat is
    penalized); the game's rows, penalties and record are the return value."""
    env = MahjongEnv(rules=config.rules, episode=config.episode)
    env.reset(seed=task.seed)
    specs = [config.agents[i] for i in task.seats]
    players = [agent_for(spec, seat, 0 if spec in batched else table)
               for seat, spec in enumerate(specs)]
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
            if specs[seat] in batched:
                action: Any = yield Ask(specs[seat], obs["observation"], obs["action_mask"])
            else:
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

