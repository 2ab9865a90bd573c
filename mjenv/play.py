"""``mjenv play``: a person plays one seat in the terminal against agents.

The table is drawn from the person's seat (mjenv.render, so nothing hidden shows); every legal
move is listed with a number and its name, and the person answers with the number, the action's
name (``Discard W5``, case and extra spaces ignored), a tile code for a discard (``W5``), or the
action id prefixed by ``#`` (``#6``). ``q`` (or end of input) quits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from mjenv import actions as A
from mjenv.agent import Agent, make_agent
from mjenv.engine.result import HandResult
from mjenv.mahjong_env import AGENTS, MahjongEnv, result_info
from mjenv.render import render_view
from mjenv.tiles import CODES


def parse_choice(text: str, legal: Sequence[int]) -> int | None:
    """The legal action ``text`` names (see the module docstring), or None."""
    words = " ".join(text.split()).lower()
    if not words:
        return None
    if words.isdigit() and 1 <= int(words) <= len(legal):
        return legal[int(words) - 1]
    if words.startswith("#") and words[1:].isdigit():
        return int(words[1:]) if int(words[1:]) in legal else None
    for a in legal:
        name = A.action_to_string(a).lower()
        if words == name:
            return a
        kind, tile = A.decode(a)
        if kind == A.K_DISCARD and words == CODES[tile].lower():
            return a
    return None


class QuitGame(Exception):
    """The person quit."""


def play_in_terminal(seat: int = 0, opponents: Sequence[str | Agent] = ("random",) * 3,
                     seed: int | None = None, glyphs: bool = True,
                     read: Callable[[str], str] | None = None,
                     write: Callable[[str], None] | None = None,
                     **env_options: object) -> None:
    """Play one episode (``env_options``: rules, episode, ...) with the person at ``seat``;
    ``read`` (default :func:`input`, looked up at call time) asks for a move, ``write``
    (default :func:`print`) shows text. :class:`QuitGame` when the person quits."""
    if read is None:
        read = input
    if write is None:
        write = print
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(4):
        raise ValueError(f"seat must be 0..3, got {seat!r}")
    if len(opponents) != 3:
        raise ValueError(f"three opponents, please (got {len(opponents)})")
    bots = [make_agent(o) if isinstance(o, str) else o for o in opponents]
    env = MahjongEnv(**env_options)  # type: ignore[arg-type]
    env.reset(seed=seed)
    others = [(seat + 1 + i) % 4 for i in range(3)]
    for i, bot in enumerate(bots):
        bot.reset(others[i], None if seed is None else seed + 1 + i)
    me = AGENTS[seat]
    shown = 0  # finished hands whose result was printed
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if agent == me:  # every hand that ended since the person last looked, in order
            finished = _finished(env)
            for result in finished[shown:]:
                write(_result_text(result_info(result)))
            shown = len(finished)
        if term or trunc:
            env.step(None)
            continue
        s = AGENTS.index(agent)
        if s != seat:
            env.step(bots[others.index(s)].act(obs["observation"], obs["action_mask"]))
            continue
        legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
        write(render_view(env._view_now(seat), glyphs=glyphs))
        write("  " + "   ".join(f"{i + 1}) {A.action_to_string(a)}"
                                for i, a in enumerate(legal)))
        while True:
            try:
                text = read("your move> ")
            except EOFError:
                raise QuitGame from None
            if text.strip().lower() in ("q", "quit", "exit"):
                raise QuitGame
            choice = parse_choice(text, legal)
            if choice is not None:
                break
            write("  not a legal move here: answer with a number from the list, a move's "
                  "name, or a tile code to discard it")
        env.step(choice)


def _finished(env: MahjongEnv) -> list[HandResult]:
    if env.match is not None:
        return list(env.match.results)
    game = env.game
    return [game.result] if game is not None and game.result is not None else []


def _result_text(result: dict[str, object]) -> str:
    payments = result["payments"]
    assert isinstance(payments, dict)
    pay = "  ".join(f"{a} {p:+d}" for a, p in payments.items())
    if result["winner"] is not None:
        fans = result["fans"]
        assert isinstance(fans, list)
        names = ", ".join(f["zh"] for f in fans)
        return f"== {result['winner']} wins: {result['total']} points ({names}) == {pay}"
    if result["penalized"] is not None:
        return f"== {result['penalized']} is penalized == {pay}"
    return f"== exhaustive draw == {pay}"
