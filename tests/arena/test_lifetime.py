"""An arena process killed with workers running leaves no process behind (workers, the
resource tracker), and the re-run resumes to the uninterrupted result; an exception in the
parent stops the workers at once."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from mjenv.arena import ArenaConfig, run_arena
from tests.arena.test_arena import rows_of

ROOT = Path(__file__).resolve().parents[2]
SLOW = "MJENV_TEST_SLOW_AGENT"
"""Seconds the Slow agent sleeps per decision (not set: no sleep): the killed run is slow
enough to be caught in the middle; the reference and the resumed run are not slowed."""
AGENTS = ("tests.arena.test_lifetime:Slow", "random seed=1")
DEALS = 8
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


class Slow:
    """A random player that can be slowed down (:data:`SLOW`); same moves either way."""

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
    """The live processes of session ``sid`` (PID -> command line): the arena started in a
    session of its own, its workers and the resource tracker, which stay in it when orphaned
    (their parent PID then changes, their session does not)."""
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


def command(out: Path) -> list[str]:
    return [sys.executable, "-m", "mjenv", "arena", "--agents", *AGENTS, "--deals", str(DEALS),
            "--workers", "2", "--out", str(out), "--no-progress"]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The uninterrupted run (one process)."""
    out = tmp_path_factory.mktemp("whole")
    run_arena(ArenaConfig(agents=AGENTS, deals=DEALS), out, progress=False)
    return out


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "SIGINT"])
def test_a_killed_arena_leaves_no_process_and_resumes(how: str, tmp_path: Path,
                                                      reference: Path) -> None:
    out = tmp_path / "run"
    env = {**os.environ, SLOW: "0.003"}
    arena = subprocess.Popen(command(out), cwd=ROOT, env=env, start_new_session=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (out / "done.txt").exists() or not (out / "done.txt").read_text():
            assert arena.poll() is None, arena.communicate()
            assert time.monotonic() < deadline, "no game finished in a minute"
            time.sleep(0.02)
        running = session(arena.pid)
        assert sum("spawn_main" in c for c in running.values()) == 2, running
        assert any("resource_tracker" in c for c in running.values()), running
        if how == "SIGINT":  # Ctrl-C: the terminal signals the whole foreground group
            os.killpg(arena.pid, signal.SIGINT)
        else:
            arena.send_signal(getattr(signal, how))
        _, stderr = arena.communicate(timeout=30)
        deadline = time.monotonic() + 10
        while session(arena.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session(arena.pid) == {}, "left behind"
    finally:
        for pid in session(arena.pid):
            os.kill(pid, signal.SIGKILL)
    status = {"SIGKILL": -signal.SIGKILL, "SIGTERM": 143, "SIGINT": 130}[how]
    assert arena.returncode == status, stderr
    if how != "SIGKILL":
        assert "Traceback" not in stderr
        assert stderr.strip().endswith("re-run the same command to resume"), stderr
    done = len((out / "done.txt").read_text().split())
    assert 0 < done < DEALS * 4, "the run was not caught in the middle"
    if how == "SIGINT":
        return  # stopped by the same code as SIGTERM: its resume is checked there

    again = subprocess.run(command(out), cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert rows_of(out) == rows_of(reference)
    assert json.loads((out / "results.json").read_text()) == json.loads(
        (reference / "results.json").read_text())


def test_an_exception_in_the_parent_stops_the_workers_at_once(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               ) -> None:
    """Ctrl-C while the workers play: they are ended, not waited for (a chunk here takes over
    ten seconds); the re-run replays what they had not finished."""
    monkeypatch.setenv(SLOW, "0.05")
    # the workers import the Slow agent from this test module: the repository on their path
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, (str(ROOT),
                                                                   os.environ.get("PYTHONPATH")))))
    monkeypatch.syspath_prepend(str(ROOT))
    timer = threading.Timer(2.0, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_arena(ArenaConfig(agents=("random", AGENTS[0]), deals=4), tmp_path,
                      workers=2, progress=False, chunk_deals=1)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 8
    assert multiprocessing.active_children() == []
    assert (tmp_path / "done.txt").read_text() == ""
