"""Run a Botzone bot program as the platform does: a fresh process per turn, or one kept running.

:class:`BotProcess` sends a program its turns and reads its answers under a time limit and an
output limit per turn.

Fresh process (``keep_running=False``, the default): every turn the program is started, given
the whole history and then **end of file** — its standard input is closed, as on the platform,
so a program that reads its input to the end (the C++ sample bot's jsoncpp ``cin >> value``)
sees where it ends. The input is JSON ``{"requests": [...], "responses": [...]}`` on one line
(with ``data`` / ``globaldata`` when the program left some in an earlier answer), or simple
I/O: the turn number, then the requests and the program's past responses, one a line. Once it
has answered it is killed.

Keep-running (``keep_running=True``; the platform's per-bot setting, which the program must
match): the program is started with the history but its input stays open; after its answer it
prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` and is then given only the next request (a line
in simple I/O; ``{"requests": "<request>"}`` in JSON). A program that answers without the
marker is stopped and started again, with the history, next turn. A program that reads its
first input to end of file cannot be kept running: it waits for an end that never comes.

Answers are read whole: in JSON, one JSON value whatever its line breaks (jsoncpp pretty-prints
``{`` and ``"response" : "..."`` on lines of their own), read until the value is complete; in
simple I/O, one line. The I/O the program speaks is the ``io`` option, never guessed: an answer
in the other form fails with a message that names the option to use.

Failures raise :class:`BotFailure` with the platform's verdict: ``TLE`` (no answer within the
limit that applied to the turn, which the message states: ``first_time_limit`` on a turn where
the program was started, ``time_limit`` on a kept-running program's later turns), ``OLE`` (more
output than ``max_output`` bytes in a turn), ``RE`` (it exited, or could not start, without
answering), ``NJ`` (in JSON I/O, an answer that is not a JSON object with a ``response``
string), ``WA`` (in simple I/O, a JSON answer). The program is always killed with its whole
process group (it runs in a session of its own) when it fails, when the game ends, or on
:meth:`close`.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import IO

from mjenv.botzone.bot import KEEP_RUNNING
from mjenv.inputs import parse_json

IO_FORMS = ("simple", "json")
FIRST_TURN_MIN = 5.0
"""Seconds a turn on which the program starts gets at least (``first_time_limit``'s default):
an interpreter's start-up and imports, which a compiled bot does not pay, count in it."""
_WHITESPACE = b" \t\r\n"


class BotFailure(RuntimeError):
    """The program did not answer properly; ``verdict`` is the platform's name for it."""

    def __init__(self, verdict: str, detail: str) -> None:
        super().__init__(f"{verdict}: {detail}")
        self.verdict = verdict


def json_value_end(data: bytes) -> int | None:
    """Where the first JSON value of ``data`` ends (the index after it), skipping leading
    whitespace; None while it is incomplete. An object, array or string ends at its closing
    character (brackets counted outside strings); anything else — a number, a literal, or text
    that is no JSON at all — at the end of its line."""
    n = len(data)
    i = 0
    while i < n and data[i] in _WHITESPACE:
        i += 1
    if i == n:
        return None
    if data[i] not in b'{["':
        end = data.find(b"\n", i)
        return None if end < 0 else end
    depth = 0
    in_string = escaped = False
    for j in range(i, n):
        c = data[j]
        if in_string:
            if escaped:
                escaped = False
            elif c == 0x5C:  # backslash
                escaped = True
            elif c == 0x22:  # closing quote
                in_string = False
                if depth == 0:
                    return j + 1
        elif c == 0x22:
            in_string = True
        elif c in b"{[":
            depth += 1
        elif c in b"}]":
            depth -= 1
            if depth <= 0:
                return j + 1
    return None


class BotProcess:
    """One bot program for one game (see the module docstring).

    ``command``: the command line (a string, split as a shell would, or a list); ``io``:
    ``"simple"`` or ``"json"``; ``keep_running``: run the program as a keep-running bot (its
    input stays open; False: a fresh process every turn, given end of file); ``time_limit``:
    seconds per turn; ``first_time_limit``: seconds for a turn on which the program is started
    (the first turn, and every turn of a fresh-process program; default
    ``max(time_limit, 5)``); ``max_output``: bytes per turn.
    """

    def __init__(self, command: str | Sequence[str], *, io: str = "simple",
                 keep_running: bool = False, time_limit: float = 1.0,
                 first_time_limit: float | None = None, max_output: int = 1 << 16) -> None:
        if io not in IO_FORMS:
            raise ValueError(f"io must be one of {list(IO_FORMS)}, got {io!r}")
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ValueError("the bot's command line is empty")
        if time_limit <= 0 or max_output <= 0 or (first_time_limit is not None
                                                  and first_time_limit <= 0):
            raise ValueError("time_limit, first_time_limit and max_output must be positive")
        self.argv = argv
        self.io = io
        self.keep_running = keep_running
        self.time_limit = float(time_limit)
        self.first_time_limit = float(first_time_limit if first_time_limit is not None
                                      else max(time_limit, FIRST_TURN_MIN))
        self.max_output = int(max_output)
        self.requests: list[str] = []
        self.responses: list[str] = []
        self.data = ""
        """The ``data`` of the program's last JSON answer, given back in the next history."""
        self.globaldata = ""
        """The last ``globaldata`` it gave, given back in every later history of the game."""
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        # the turn in progress
        self._buffer = b""
        self._pending = b""  # input not written yet
        self._close_input = False
        self._eof = False
        self._used = 0
        self._deadline = 0.0
        self._limit = ""  # how the turn's time limit is described in a TLE

    # ---------------------------------------------------------------- one turn
    def ask(self, request: str) -> str:
        """Send ``request`` (and, to a program not running, the history before it); return
        its response. BotFailure if it fails; the program is then killed."""
        self.requests.append(request)
        started = self._proc is None
        try:
            if started:
                self._start()
                payload = self._history()
                limit = self.first_time_limit
                if self.keep_running:
                    self._limit = (f"{limit:g} s (first_time_limit: the turn on which the "
                                   f"program starts; later turns get {self.time_limit:g} s); "
                                   "it runs as a keep-running bot, whose input stays open: a "
                                   "bot that reads its input to end of file needs "
                                   "keep_running=False")
                else:
                    self._limit = (f"{limit:g} s (first_time_limit: a fresh-process bot starts "
                                   "every turn)")
            else:
                payload = (json.dumps({"requests": request}) if self.io == "json"
                           else request) + "\n"
                limit = self.time_limit
                self._limit = (f"{limit:g} s (time_limit: a later turn of a kept-running "
                               "program)")
            response = self._exchange(payload.encode(), time.monotonic() + limit)
        except BotFailure:
            self.close()
            raise
        self.responses.append(response)
        return response

    def _history(self) -> str:
        if self.io == "json":
            history: dict[str, object] = {"requests": self.requests,
                                          "responses": self.responses}
            if self.data:
                history["data"] = self.data
            if self.globaldata:
                history["globaldata"] = self.globaldata
            return json.dumps(history) + "\n"
        lines = [str(len(self.requests))]
        for i, r in enumerate(self.requests):
            lines.append(r)
            if i < len(self.responses):
                lines.append(self.responses[i])
        return "\n".join(lines) + "\n"

    def _start(self) -> None:
        err = tempfile.TemporaryFile()  # noqa: SIM115 - held for the process's life
        try:
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=err,
                                          start_new_session=True)
        except OSError as exc:
            err.close()
            raise BotFailure("RE", f"cannot start {shlex.join(self.argv)!r}: {exc}") from None
        self._stderr = err
        self._buffer = b""
        self._eof = False
        assert self._proc.stdin is not None
        os.set_blocking(self._proc.stdin.fileno(), False)

    def _exchange(self, payload: bytes, deadline: float) -> str:
        self._pending, self._used, self._deadline = payload, 0, deadline
        self._buffer = b""  # what a kept-running program printed after its last marker is dropped
        self._close_input = not self.keep_running  # a fresh process gets end of file
        response = self._read_json() if self.io == "json" else self._read_simple()
        if not self.keep_running or not self._marker():
            self._stop()  # a fresh process, or one that did not ask to stay
        return response

    # ---------------------------------------------------------------- reading answers
    def _read_simple(self) -> str:
        end = self._until(lambda: self._buffer.find(b"\n") if b"\n" in self._buffer else None)
        if end is None:  # end of file: a last line without a newline still counts
            end = len(self._buffer)
            if not self._buffer.strip():
                raise BotFailure("RE", self._crash_detail())
        raw, self._buffer = self._buffer[:end], self._buffer[end + 1:]
        line = raw.decode("utf-8", errors="replace").rstrip("\r")
        if line.lstrip().startswith("{"):
            raise BotFailure("WA", f"the bot answered {_clip(line)!r}, JSON, but it runs with "
                             "io=simple (one response line): a bot that answers JSON needs "
                             "io=json")
        return line

    def _read_json(self) -> str:
        end = self._until(lambda: json_value_end(self._buffer))
        if end is None:  # end of file
            if not self._buffer.strip():
                raise BotFailure("RE", self._crash_detail())
            end = len(self._buffer)
        raw, self._buffer = self._buffer[:end], self._buffer[end:]
        text = raw.decode("utf-8", errors="replace").strip()
        try:
            data = parse_json(text)  # a bot's answer: bounded nesting, never a RecursionError
        except ValueError:
            if text[0] not in '{["':
                why = ("which is not JSON (a simple-I/O answer? a bot that answers one plain "
                       "line needs io=simple)")
            elif self._eof:
                why = "an incomplete JSON value, and exited"
            else:
                why = "which is not JSON"
            raise BotFailure("NJ", f"the bot answered {_clip(text)!r}, {why}") from None
        response = data.get("response") if isinstance(data, dict) else None
        if not isinstance(response, str):
            raise BotFailure("NJ", f"the bot answered {_clip(text)!r}: a JSON answer is an "
                             'object with a "response" string')
        assert isinstance(data, dict)
        saved = data.get("data")
        self.data = saved if isinstance(saved, str) else ""  # this turn's, for the next only
        if isinstance(data.get("globaldata"), str):
            self.globaldata = data["globaldata"]
        return response

    def _marker(self) -> bool:
        """After a kept-running program's answer: whether it asks to stay up (the marker line,
        after any blank or debug lines), read within the turn's time."""
        while True:
            try:
                end = self._until(lambda: self._buffer.find(b"\n")
                                  if b"\n" in self._buffer else None)
            except BotFailure:  # no marker in time (or too much output): it will be restarted
                return False
            if end is None:  # it exited
                return self._buffer.strip() == KEEP_RUNNING.encode()
            line, self._buffer = self._buffer[:end].strip(), self._buffer[end + 1:]
            if line == KEEP_RUNNING.encode():
                return True

    def _until(self, done: Callable[[], int | None]) -> int | None:
        """Write the pending input and read output until ``done()`` gives an index (returned),
        or end of file (None). TLE past the turn's deadline, OLE past ``max_output``."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None and proc.stdin is not None
        out_fd = proc.stdout.fileno()
        found = done()
        if found is not None or self._eof:
            return found
        with selectors.DefaultSelector() as sel:
            sel.register(out_fd, selectors.EVENT_READ)
            self._feed(proc.stdin, sel)
            while True:
                left = self._deadline - time.monotonic()
                if left <= 0:
                    shown = self._buffer.decode("utf-8", errors="replace").strip()
                    raise BotFailure("TLE", f"no answer within {self._limit}" + (
                        f"; it printed {_clip(shown)!r}, not a whole answer" if shown else ""))
                for key, _ in sel.select(left):
                    if key.fd != out_fd:
                        self._feed(proc.stdin, sel)
                        continue
                    chunk = os.read(out_fd, 65536)
                    if not chunk:
                        self._eof = True
                        return None
                    self._used += len(chunk)
                    if self._used > self.max_output:
                        raise BotFailure("OLE", f"more than {self.max_output} bytes of output "
                                                "in one turn")
                    self._buffer += chunk
                    found = done()
                    if found is not None:
                        return found

    def _feed(self, stdin: IO[bytes], sel: selectors.BaseSelector) -> None:
        """Write what the pipe takes of the pending input, without blocking: while some is
        left ``stdin`` stays registered in ``sel`` for writing. A fresh process's input is
        closed after the last byte (its end of file)."""
        fd = stdin.fileno() if not stdin.closed else -1
        registered = fd >= 0 and fd in sel.get_map()
        try:
            while self._pending and fd >= 0:
                written = os.write(fd, self._pending)
                self._pending = self._pending[written:]
        except BlockingIOError:
            if not registered:
                sel.register(fd, selectors.EVENT_WRITE)
            return
        except OSError:  # it closed its input or died: what it printed says how
            self._pending = b""
        if registered:
            sel.unregister(fd)
        if self._close_input and not stdin.closed:
            with contextlib.suppress(OSError):
                stdin.close()

    def _crash_detail(self) -> str:
        proc = self._proc
        code = proc.poll() if proc is not None else None
        if proc is not None and code is None:
            try:
                code = proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
        tail = ""
        err = self._stderr
        if err is not None:
            err.seek(0)
            text = err.read().decode("utf-8", errors="replace")
            tail = " | ".join(text.strip().splitlines()[-3:])
        detail = f"the program exited (status {code}) without answering" + (
            f"; stderr: {tail[:300]}" if tail else "")
        if self.io == "simple" and "json" in tail.lower():
            detail += " (its error mentions JSON: if the bot reads JSON, it needs io=json)"
        return detail

    # ---------------------------------------------------------------- cleanup
    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        err, self._stderr = self._stderr, None
        if err is not None:
            err.close()
        self._buffer = self._pending = b""

    def close(self) -> None:
        """Kill the program (and its process group) if it runs."""
        self._stop()

    def __del__(self) -> None:
        try:  # noqa: SIM105 - at interpreter shutdown, module globals such as contextlib are gone
            self._stop()
        except Exception:  # noqa: BLE001
            pass


def _clip(text: str, size: int = 120) -> str:
    return text if len(text) <= size else text[:size] + "..."
