"""Play Botzone games between our Judge and bots that are reached only through the protocol's
text: each seat is fed exactly the lines a bot process would read and answers with the lines it
would print (keep-running: one Session per game; fresh: a new Bot per turn, given the whole
history as JSON or simple input). A fresh bot's agent object is made once per seat and reset
at every turn, as a new process would start it (a checkpoint is not reloaded 150 times)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from mjenv.agent import Agent
from mjenv.botzone import Judge
from mjenv.botzone.bot import KEEP_RUNNING, Bot, Session, answer_json, answer_simple
from mjenv.botzone.judge import Finish
from mjenv.tiles import CODES

MODES = ("keep-json", "keep-simple", "fresh-json", "fresh-simple")


def walltiles(seed: int) -> str:
    tiles = [CODES[t] for t in range(34) for _ in range(4)]
    random.Random(seed).shuffle(tiles)
    return " ".join(tiles)


class TextSeat:
    """One bot seen through its text I/O."""

    def __init__(self, make: Callable[[], Agent], mode: str, seed: int) -> None:
        assert mode in MODES
        self.make, self.mode, self.seed = make, mode, seed
        self.requests: list[str] = []
        self.responses: list[str] = []
        self.session: Session | None = None
        self.agent = make()

    def send(self, request: str) -> str:
        self.requests.append(request)
        if self.mode.startswith("keep"):
            response = self._keep(request)
        else:
            bot = Bot(self.agent, seed=self.seed + len(self.requests))
            if self.mode == "fresh-json":
                text = json.dumps({"requests": self.requests, "responses": self.responses})
                response = json.loads(answer_json(bot, text))["response"]
            else:
                n = len(self.requests)
                lines = [str(n)]
                for i in range(n):
                    lines.append(self.requests[i])
                    if i < n - 1:
                        lines.append(self.responses[i])
                response = answer_simple(bot, "\n".join(lines) + "\n")
        self.responses.append(response)
        return response

    def _keep(self, request: str) -> str:
        is_json = self.mode == "keep-json"
        if self.session is None:
            self.session = Session(Bot(self.agent, seed=self.seed), keep_running=True)
            lines = [json.dumps({"requests": [request], "responses": []})] if is_json \
                else ["1", request]
        else:
            lines = [json.dumps({"requests": request})] if is_json else [request]
        out: list[str] = []
        for line in lines:
            out.extend(self.session.feed(line))
        assert len(out) == 2 and out[1] == KEEP_RUNNING, out
        return json.loads(out[0])["response"] if is_json else out[0]


def play(makers: list[Callable[[], Agent]], mode: str, seed: int) -> tuple[Finish, Judge]:
    """One game; the seats' bots made by ``makers``."""
    judge = Judge(walltiles(seed), quan=seed % 4)
    seats = [TextSeat(makers[s], mode, seed * 10 + s) for s in range(4)]
    while not judge.is_over:
        requests = judge.requests()
        judge.respond([seats[s].send(requests[s]) for s in range(4)])
    assert judge.finish is not None
    return judge.finish, judge


def summary(finishes: list[Finish]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in finishes:
        out[f.action] = out.get(f.action, 0) + 1
    return out
