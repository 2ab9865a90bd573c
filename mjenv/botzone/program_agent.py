"""A Botzone bot program as an mjenv agent: spec ``botzone:"<command line>"``.

>>> agent = make_agent('botzone:"python -m mjenv.botzone.sample_bot" io=json')  # doctest: +SKIP

The program plays one seat of the ``botzone`` rules in our env or arena, exactly as on the
platform: it is sent every request the judge would send that seat, every turn — including the
turns where our env does not ask the seat (someone else's draw, a discard it cannot claim),
where its only valid answer is ``PASS`` — and its answers become the seat's actions.

How it gets the requests: an agent sees only observations, which do not hold the turn-by-turn
history, so this agent has the optional hook ``observe_events(events, view)`` (mjenv.agent): the
arena calls it before every decision of any seat with the events this seat may see (redacted),
and the agent writes them into this seat's requests (mjenv.botzone.turns), sends each to the
program (mjenv.botzone.process) and checks the answer at once with the seat's own legality
(mjenv.botzone.seat: the same code the bot side uses). ``act`` then returns the answer the
program gave for the decision at hand (after a ``PENG T`` / ``CHI M T`` that was taken, the
discard ``T``).

Every way a program can fail — it crashes, hangs past its time limit, prints more than
``max_output`` bytes, prints garbage (or answers in the other I/O than ``io`` says), or answers
something illegal — raises :class:`BotzoneBotError` naming the verdict (``RE``, ``TLE``,
``OLE``, ``NJ``, ``WA``, ``WH``), the request and the answer; the arena penalizes the seat with
the profile's penalty (−30, +10 to each other seat), writes the message in the hand's row and
plays on. Every failure is also logged (logger ``mjenv.botzone``). The program is killed when
the hand ends, on the next ``reset`` and on ``close``.

Options (spec ``key=value``): ``io`` (``"simple"`` default, or ``"json"``: the I/O the program
speaks), ``keep_running`` (False, the default: a fresh process every turn, given the history
and end of file; True: run it as a keep-running bot, whose input stays open and which stays up
between turns when it prints the marker — a program that reads its input to end of file cannot
run so), ``time_limit`` (seconds per turn, default 1.0), ``first_time_limit`` (seconds for a turn
on which the program starts: the first, and every turn of a fresh process; default
``max(time_limit, 5)``), ``max_output`` (bytes per turn, default 65536). See
mjenv.botzone.process.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from mjenv import actions as A
from mjenv.botzone.process import BotFailure, BotProcess
from mjenv.botzone.seat import NONE, BotSeat, ProtocolError, action_of
from mjenv.botzone.turns import TurnWriter
from mjenv.engine.events import Event
from mjenv.engine.seat_view import SeatView

log = logging.getLogger("mjenv.botzone")


class BotzoneBotError(RuntimeError):
    """The program failed a turn; ``verdict`` is the judge's name for it."""

    def __init__(self, verdict: str, message: str) -> None:
        super().__init__(f"{verdict}: {message}")
        self.verdict = verdict


class BotzoneProgramAgent:
    """See the module docstring."""

    spec_argument: ClassVar[str] = "command"
    """The option that the spec's argument fills: ``botzone:"python bot.py"`` (mjenv.agent)."""
    runs_programs: ClassVar[bool] = True
    """It starts a program: refused where specs are restricted (MJENV_ALLOW_IMPORT=0)."""

    def __init__(self, command: str, io: str = "simple", keep_running: bool = False,
                 time_limit: float = 1.0, first_time_limit: float | None = None,
                 max_output: int = 1 << 16) -> None:
        if not isinstance(command, str) or not command.strip():
            raise ValueError("botzone needs the bot's command line: 'botzone:\"python bot.py\"'")
        self.command = command
        self.options = {"io": io, "keep_running": bool(keep_running),
                        "time_limit": float(time_limit), "max_output": int(max_output),
                        "first_time_limit": (None if first_time_limit is None
                                             else float(first_time_limit))}
        BotProcess(command, **self.options)  # type: ignore[arg-type]  # bad options fail now
        self.seat = -1
        self._process: BotProcess | None = None
        self._writer: TurnWriter | None = None
        self._bot_seat: BotSeat | None = None
        self._answer: list[int] = []  # the program's answer to the current decision
        self.failures: list[str] = []

    # ---------------------------------------------------------------- the Agent protocol
    def reset(self, seat: int, seed: int | None = None) -> None:
        self.close()
        self.seat = seat
        self._writer = None
        self._bot_seat = BotSeat()
        self._answer = []

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if not self._answer:
            raise self._fail("WA", "the seat is asked to act but the program's answer to "
                             "its last request is no decision (the arena did not call "
                             "observe_events?)")
        action = self._answer.pop(0)
        if not 0 <= action < len(action_mask) or action_mask[action] != 1:
            raise self._fail("WA", f"the answer {A.action_to_string(action)} is not legal now")
        return action

    def close(self) -> None:
        """Kill the program if it runs."""
        if self._process is not None:
            self._process.close()
            self._process = None

    # ---------------------------------------------------------------- the arena's hook
    def observe_events(self, events: Sequence[Event], view: SeatView) -> None:
        """Send the program the requests these events make (see the module docstring)."""
        if view.over:
            self.close()
            return
        if self._writer is None:
            self._writer = TurnWriter(view.prevalent_wind)
            self._process = BotProcess(self.command, **self.options)  # type: ignore[arg-type]
        for turn in self._writer.feed(events):
            self._turn(turn.requests[self.seat])

    def _turn(self, request: str) -> None:
        seat, process = self._bot_seat, self._process
        assert seat is not None and process is not None
        seat.feed(request)
        try:
            response = process.ask(request)
        except BotFailure as exc:
            raise self._fail(exc.verdict, f"request {request!r}: {exc}") from None
        legal = seat.legal()
        what = f"request {request!r}, answer {response!r}"
        if not legal and response == "HU" and seat.decision != NONE:
            raise self._fail("WH", f"{what}: no win")
        try:
            action, then = action_of(response, seat.decision if legal else NONE,
                                     seat.claim_tile)
        except ProtocolError as exc:
            raise self._fail("WA", f"{what}: {exc}") from None
        if legal and action not in legal:
            raise self._fail("WH" if action == A.WIN else "WA", f"{what}: not legal")
        seat.answered(response)
        self._answer = [action] + ([then] if then is not None else []) if legal else []

    def _fail(self, verdict: str, message: str) -> BotzoneBotError:
        self.close()
        text = f"botzone bot {self.command!r} (seat {self.seat}): {message}"
        self.failures.append(text)
        log.warning("%s: %s", verdict, text)
        return BotzoneBotError(verdict, text)

    def __del__(self) -> None:
        try:  # noqa: SIM105 - at interpreter shutdown, module globals such as contextlib are gone
            self.close()
        except Exception:  # noqa: BLE001
            pass
