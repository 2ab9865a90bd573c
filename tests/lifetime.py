"""What the lifetime tests of ``mjenv arena`` and ``mjenv train`` share (issue 14): a command
started in a session of its own, signalled in the middle of its work, and the session then
watched in ``/proc`` until no process of it is left (the command, its workers and the
resource tracker stay in the session when orphaned: their parent PID changes, their session
does not). Not a test module: the tests import it."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SLOW = "MJENV_TEST_SLOW_AGENT"
"""Seconds the :class:`Slow` agent sleeps per decision (not set: no sleep): a killed run is slow
enough to be caught in the middle; the reference and the resumed run are not slowed."""
SLOW_SPEC = "tests.lifetime:Slow"
STATUS = {"SIGKILL": -signal.SIGKILL, "SIGTERM": 128 + signal.SIGTERM,
          "SIGINT": 128 + signal.SIGINT}
"""The exit status of a command each signal ends: SIGKILL leaves no say; SIGTERM and Ctrl-C
unwind and exit as a shell reports a process the signal ended."""
HAS_PROC = Path("/proc/self/stat").exists()


class Slow:
    """A random player that can be slowed down (:data:`SLOW`); the same moves either way."""

    def __init__(self) -> None:
        self.delay = float(os.environ.get(SLOW, "0"))
        self.rng = np.random.default_rng(0)

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if self.delay:
            time.sleep(self.delay)
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])


def session(sid: int) -> dict[int, str]:
    """The live processes of session ``sid`` (PID -> command line)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        state, _ppid, _pgrp, session_id = stat[stat.rindex(")") + 2:].split()[:4]
        if int(session_id) == sid and state != "Z":
            found[int(entry.name)] = command
    return found



def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, dead but not yet reaped by init, is not alive)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def wait_gone(pid: int, seconds: float = 5.0) -> bool:
    """Whether ``pid`` is gone (no longer :func:`alive`) within ``seconds``. With
    :func:`alive`, what the tests of processes tied to their parent share (mjenv.procs, the
    vector env's workers)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


@dataclass
class Killed:
    """How a signalled command ended: its status and stderr, and what ran in its session
    when the signal was sent."""

    status: int
    stderr: str
    running: dict[int, str]


def kill_midway(command: Sequence[str], how: str, ready: Callable[[dict[int, str]], bool],
                env: Mapping[str, str] | None = None, start_timeout: float = 120,
                linger: float = 10) -> Killed:
    """Start ``command`` (from the repository, in a new session), wait until ``ready`` says
    yes to its session's processes, send the signal named ``how`` (SIGINT to the whole group,
    as a terminal's Ctrl-C does; the others to the command alone), and check that every
    process of the session is gone within ``linger`` seconds. Whatever happens, nothing of
    the session survives the call."""
    started = subprocess.Popen(list(command), cwd=ROOT, env=None if env is None else dict(env),
                               start_new_session=True, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + start_timeout
        while not ready(running := session(started.pid)):
            assert started.poll() is None, started.communicate()
            assert time.monotonic() < deadline, f"not ready in {start_timeout} s: {running}"
            time.sleep(0.02)
        if how == "SIGINT":
            os.killpg(started.pid, signal.SIGINT)
        else:
            started.send_signal(getattr(signal, how))
        _, stderr = started.communicate(timeout=60)
        deadline = time.monotonic() + linger
        while session(started.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session(started.pid) == {}, f"left behind after {how}"
    finally:
        for pid in session(started.pid):
            os.kill(pid, signal.SIGKILL)
        if started.poll() is None:
            started.kill()
            started.communicate()
    return Killed(started.returncode, stderr, running)


def check_unwound(killed: Killed, how: str, command: str) -> None:
    """The status ``how`` gives, and (but after SIGKILL) one line on stderr, no traceback,
    that says how to resume."""
    assert killed.status == STATUS[how], killed.stderr
    if how != "SIGKILL":
        assert "Traceback" not in killed.stderr, killed.stderr
        last = killed.stderr.strip().splitlines()[-1]
        assert last.startswith(f"mjenv {command}: ") and \
            last.endswith("re-run the same command to resume"), killed.stderr
