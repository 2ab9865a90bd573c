"""Run a Botzone bot program as the platform does: a subprocess per turn, or one kept running.

:class:`BotProcess` sends a program its turns and reads its answers under a time limit and an
output limit per turn. A program that is not running is started and given the whole history
(JSON ``{"requests": [...], "responses": [...]}`` on one line, or simple I/O: the turn number
then the lines); once it has answered, a program that prints
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` is kept and given only the next request (a line in
simple I/O; ``{"requests": "<request>"}`` in JSON), any other is let exit (it will be started
again with the history next turn). The program is always killed with its whole process group
(it runs in a session of its own) when it fails, when the game ends, or on :meth:`close`.

A failure raises :class:`BotFailure` with the platform's verdict: ``TLE`` (no answer in time),
``OLE`` (more output than allowed), ``RE`` (it exited or could not start without answering).
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
from collections.abc import Sequence
from typing import IO

from mjenv.botzone.bot import KEEP_RUNNING

IO_FORMS = ("simple", "json")


class BotFailure(RuntimeError):
    """The program did not answer properly; ``verdict`` is the platform's name for it."""

    def __init__(self, verdict: str, detail: str) -> None:
        super().__init__(f"{verdict}: {detail}")
        self.verdict = verdict


class BotProcess:
    """One bot program for one game (see the module docstring).

    ``command``: the command line (a string, split as a shell would, or a list); ``io``:
    ``"simple"`` or ``"json"``; ``keep_running``: allow the program to stay up between turns
    (False: every turn is a fresh process, whatever it prints); ``time_limit``: seconds per
    turn (the first turn of a started program gets ``first_time_limit``); ``max_output``: bytes
    per turn.
    """

    def __init__(self, command: str | Sequence[str], *, io: str = "simple",
                 keep_running: bool = True, time_limit: float = 1.0,
                 first_time_limit: float | None = None, max_output: int = 1 << 16) -> None:
        if io not in IO_FORMS:
            raise ValueError(f"io must be one of {list(IO_FORMS)}, got {io!r}")
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ValueError("the bot's command line is empty")
        if time_limit <= 0 or max_output <= 0:
            raise ValueError("time_limit and max_output must be positive")
        self.argv = argv
        self.io = io
        self.keep_running = keep_running
        self.time_limit = float(time_limit)
        self.first_time_limit = float(first_time_limit or max(time_limit, 5.0))
        self.max_output = int(max_output)
        self.requests: list[str] = []
        self.responses: list[str] = []
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._stderr: IO[bytes] | None = None

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
            else:
                payload = (json.dumps({"requests": request}) if self.io == "json"
                           else request) + "\n"
            limit = self.first_time_limit if started else self.time_limit
            response = self._exchange(payload, time.monotonic() + limit)
        except BotFailure:
            self.close()
            raise
        self.responses.append(response)
        return response

    def _history(self) -> str:
        if self.io == "json":
            return json.dumps({"requests": self.requests, "responses": self.responses}) + "\n"
        lines = [str(len(self.requests))]
        for i, r in enumerate(self.requests):
            lines.append(r)
            if i < len(self.responses):
                lines.append(self.responses[i])
        return "\n".join(lines) + "\n"

    def _start(self) -> None:
        self._buffer = b""
        err = tempfile.TemporaryFile()  # noqa: SIM115 - held for the process's life
        try:
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=err,
                                          start_new_session=True)
        except OSError as exc:
            err.close()
            raise BotFailure("RE", f"cannot start {shlex.join(self.argv)!r}: {exc}") from None
        self._stderr = err

    def _exchange(self, payload: str, deadline: float) -> str:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(payload.encode())
            proc.stdin.flush()
        except OSError:
            pass  # it died: the read below says how
        used = 0
        line, used = self._line(deadline, used)
        if self.io == "json":
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                data = None
            response = data.get("response") if isinstance(data, dict) else None
            if not isinstance(response, str):
                response = line  # not the JSON answer: the judge will find it malformed
        else:
            response = line
        if not self.keep_running:
            self._stop()
            return response
        try:
            marker, _ = self._line(deadline, used, eof_ok=True)
        except BotFailure:
            marker = ""
        if marker != KEEP_RUNNING:
            self._stop()  # it answered and did not ask to stay: next turn starts it afresh
        return response

    def _line(self, deadline: float, used: int, eof_ok: bool = False) -> tuple[str, int]:
        """The next line of output (without the newline), before ``deadline``."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BotFailure("TLE", f"no answer within the time limit "
                                            f"({self.time_limit:g} s per turn)")
                if not sel.select(left):
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    if eof_ok:
                        return "", used
                    raise BotFailure("RE", self._crash_detail())
                used += len(chunk)
                if used > self.max_output:
                    raise BotFailure("OLE", f"more than {self.max_output} bytes of output "
                                            "in one turn")
                self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\n")
        return raw.decode("utf-8", errors="replace").rstrip("\r"), used

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
        return f"the program exited (status {code}) without answering" + (
            f"; stderr: {tail[:300]}" if tail else "")

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

    def close(self) -> None:
        """Kill the program (and its process group) if it runs."""
        self._stop()

    def __del__(self) -> None:
        try:  # noqa: SIM105 - at interpreter shutdown, module globals such as contextlib are gone
            self._stop()
        except Exception:  # noqa: BLE001
            pass
