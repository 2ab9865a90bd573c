"""An mjenv agent as a Botzone bot: ``mjenv botzone-bot --agent SPEC [--keep-running]``.

:class:`Bot` answers one request at a time: it folds the request into the seat's view
(:class:`mjenv.botzone.seat.BotSeat`), and when the request opens a real decision it asks the
agent with exactly what mjenv's env would give that seat — the encoder's observation of the
seat's view and the legal-action mask computed as the engine computes it — and writes the
answer in Botzone's words. Where PASS is the only answer (the env would not ask the seat) the
agent is not asked. A chow or a pung and the discard after it are one answer (``PENG T``,
``CHI M T``): the agent is asked twice, the second time on the view as it would be after the
claim.

The I/O of Botzone's bots (the platform's conventions, the same for every game):

JSON
    one line in, a JSON object ``{"requests": [...], "responses": [...]}`` holding the whole
    history (one more request than responses; other keys such as ``data`` are ignored); one
    line out, ``{"response": "..."}``.
simple
    the first line is the turn number ``n``, then ``2n - 1`` lines alternating requests and
    this bot's past responses (anything after them — ``data``, ``globaldata`` — is ignored);
    one line out, the response.
keep-running (``--keep-running``)
    the first turn as above; after each answer the bot prints
    ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` and waits for the next turn, which is only the new
    request: one line, the request itself in simple mode, in JSON mode a JSON object whose
    ``requests`` is the request (or a list ending with it) or a bare JSON string.

The format of the first input is recognised by its first character (``{`` is JSON). A broken
input or an agent that fails ends the program with a message on stderr and exit status 2 (the
platform then scores the bot as it scores a crash).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any

import numpy as np

from mjenv import actions as A
from mjenv.agent import Agent
from mjenv.botzone.seat import BotSeat, ProtocolError, response_of
from mjenv.encoders import SeatEncoder, make_encoder
from mjenv.engine.seat_view import SeatView
from mjenv.inputs import parse_json

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


class BotError(RuntimeError):
    """The agent behind the bot failed (raised, or chose an action outside its mask)."""


class Bot:
    """One seat played by ``agent`` (see the module docstring). ``encoder`` names the
    observation encoder (the env's default ``mjenv-v1``); ``seed`` is given to
    ``agent.reset`` when the first request tells the seat."""

    def __init__(self, agent: Agent, *, encoder: str = "mjenv-v1", seed: int | None = None,
                 flowers: bool | None = None) -> None:
        self.agent = agent
        self.encoder_name = encoder
        self.seed = seed
        self.seat = BotSeat(flowers=flowers)
        self._encoders: dict[object, SeatEncoder] = {}
        make_encoder(encoder)  # an unknown name fails now

    def _encode(self, view: SeatView, mask: np.ndarray) -> np.ndarray:
        rules = self.seat.rules
        enc = self._encoders.get(rules)
        if enc is None:
            enc = self._encoders[rules] = make_encoder(self.encoder_name, rules)
        out: np.ndarray = enc.encode(view, mask)
        return out

    def _ask(self, view: SeatView, legal: list[int]) -> int:
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        mask[legal] = 1
        try:
            action = int(self.agent.act(self._encode(view, mask), mask))
        except Exception as exc:  # noqa: BLE001 - reported as the bot's failure
            raise BotError(f"the agent failed: {type(exc).__name__}: {exc}") from exc
        if action not in legal:
            raise BotError(f"the agent chose {action}, outside its mask {legal}")
        return action

    def _first(self, request: str) -> None:
        if self.seat.requests == 1:
            self.agent.reset(self.seat.seat, self.seed)

    def replay(self, request: str, response: str) -> None:
        """Fold a past turn (fresh-process mode) without asking the agent."""
        self.seat.feed(request)
        self._first(request)
        self.seat.answered(response)

    def respond(self, request: str) -> str:
        """Fold ``request`` and answer it."""
        seat = self.seat
        seat.feed(request)
        self._first(request)
        legal = seat.legal()
        if not legal:
            response = "PASS"
        else:
            view = seat.view
            assert view is not None
            action = self._ask(view, legal)
            kind = A.decode(action)[0]
            if kind in (A.K_CHOW, A.K_PUNG):
                after, discards = seat.after_claim(action)
                response = response_of(action, self._ask(after, discards))
            else:
                response = response_of(action)
        seat.answered(response)
        return response


# ================================================================ the three kinds of input
def _history(requests: object, responses: object) -> tuple[list[str], list[str]]:
    if not isinstance(requests, list) or not isinstance(responses, list) \
            or not all(isinstance(x, str) for x in [*requests, *responses]):
        raise ProtocolError("'requests' and 'responses' must be lists of strings")
    if len(requests) != len(responses) + 1:
        raise ProtocolError(f"{len(requests)} requests need {len(requests) - 1} responses, "
                            f"got {len(responses)}")
    return requests, responses


def parse_json_input(text: str) -> tuple[list[str], list[str]]:
    """The history of a JSON input line."""
    try:
        data = parse_json(text)  # untrusted: bounded nesting, never a RecursionError
    except ValueError as exc:
        raise ProtocolError(f"the input is not JSON: {exc}") from None
    if not isinstance(data, dict) or "requests" not in data:
        raise ProtocolError("the JSON input is an object with 'requests' and 'responses'")
    return _history(data["requests"], data.get("responses", []))


def parse_simple_input(lines: list[str]) -> tuple[list[str], list[str]]:
    """The history of a simple input (its lines, the turn number first)."""
    if not lines or not lines[0].strip().isdigit() or int(lines[0]) < 1:
        raise ProtocolError("simple input starts with the turn number n >= 1")
    n = int(lines[0])
    body = [line.rstrip("\r\n") for line in lines[1:2 * n]]
    if len(body) != 2 * n - 1:
        raise ProtocolError(f"turn {n} needs {2 * n - 1} lines after the first, "
                            f"got {len(body)}")
    return body[0::2], body[1::2]


def answer_history(bot: Bot, requests: list[str], responses: list[str]) -> str:
    """Fold the past turns into ``bot`` and answer the last request."""
    for request, response in zip(requests, responses, strict=False):
        bot.replay(request, response)
    return bot.respond(requests[-1])


def answer_json(bot: Bot, text: str) -> str:
    """One fresh-process turn in JSON: the output line for the input line ``text``."""
    return json.dumps({"response": answer_history(bot, *parse_json_input(text))})


def answer_simple(bot: Bot, text: str) -> str:
    """One fresh-process turn in simple I/O: the response line for the input ``text``."""
    return answer_history(bot, *parse_simple_input(text.splitlines()))


def _next_request_json(line: str) -> str:
    try:
        data = parse_json(line)  # untrusted: bounded nesting, never a RecursionError
    except ValueError as exc:
        raise ProtocolError(f"the input is not JSON: {exc}") from None
    if isinstance(data, dict):
        data = data.get("requests")
    if isinstance(data, list) and data:
        data = data[-1]
    if not isinstance(data, str):
        raise ProtocolError("a keep-running JSON turn is the request, or an object whose "
                            "'requests' is the request")
    return data


class Session:
    """The bot's side of one game as a push machine: :meth:`feed` takes input lines one at a
    time and returns the output lines they produce (the first turn in JSON or simple form; with
    ``keep_running`` every later turn, each answer followed by :data:`KEEP_RUNNING`). ``done``
    is set once a fresh-process bot has answered its one turn."""

    def __init__(self, bot: Bot, *, keep_running: bool) -> None:
        self.bot = bot
        self.keep_running = keep_running
        self.done = False
        self._json: bool | None = None
        self._head: list[str] = []

    def feed(self, line: str) -> list[str]:
        if self.done:
            raise ProtocolError("input after the last turn")
        if self._json is None:  # the first turn
            if not line.strip() and not self._head:
                return []
            if not self._head and line.lstrip().startswith("{"):
                self._json = True
                answer = json.dumps({"response": answer_history(
                    self.bot, *parse_json_input(line))})
            else:
                self._head.append(line)
                first = self._head[0].strip()
                if not first.isdigit():
                    raise ProtocolError("simple input starts with the turn number n >= 1")
                if len(self._head) < 2 * int(first):
                    return []
                self._json = False
                answer = answer_history(self.bot, *parse_simple_input(self._head))
        else:
            if not line.strip():
                return []
            request = _next_request_json(line) if self._json else line.rstrip("\r\n")
            response = self.bot.respond(request)
            answer = json.dumps({"response": response}) if self._json else response
        if not self.keep_running:
            self.done = True
            return [answer]
        return [answer, KEEP_RUNNING]


def serve(bot: Bot, lines: Iterator[str], write: Callable[[str], None], *,
          keep_running: bool) -> None:
    """Play a game on a line stream (see :class:`Session`) until the input ends, or after
    the one turn of a fresh-process bot."""
    session = Session(bot, keep_running=keep_running)
    for line in lines:
        for out in session.feed(line):
            write(out)
        if session.done:
            return
    if session._json is None:
        raise ProtocolError("the input ended before the first turn was complete")


def main(agent: Agent, *, keep_running: bool, encoder: str = "mjenv-v1",
         seed: int | None = None, stdin: IO[str] | None = None,
         stdout: IO[str] | None = None) -> int:
    """Run the bot on standard input and output; returns the exit status."""
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout

    def write(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    try:
        serve(Bot(agent, encoder=encoder, seed=seed), iter(inp.readline, ""), write,
              keep_running=keep_running)
    except (ProtocolError, BotError) as exc:
        print(f"mjenv botzone-bot: {exc}", file=sys.stderr)
        return 2
    return 0


def run_spec(spec: str, **options: Any) -> int:
    """``main`` for an agent spec (mjenv.agent.make_agent)."""
    from mjenv.agent import make_agent

    return main(make_agent(spec), **options)
