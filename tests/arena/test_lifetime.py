"""An arena process killed with workers running leaves no process behind (workers, the
resource tracker), and the re-run resumes to the uninterrupted result; an exception in the
parent stops the workers at once. The start-and-kill loop is shared with the training's test
(tests/lifetime.py)."""

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

import pytest

from mjenv.arena import ArenaConfig, run_arena
from tests.arena.test_arena import rows_of
from tests.lifetime import (
    HAS_PROC,
    ROOT,
    SLOW,
    SLOW_SPEC,
    Slow,
    check_unwound,
    kill_midway,
    session,
)

__all__ = ["SLOW", "Slow", "session"]  # also imported from here by other tests
AGENTS = (SLOW_SPEC, "random seed=1")
DEALS = 8
pytestmark = pytest.mark.skipif(not HAS_PROC, reason="reads /proc")


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
    done = out / "done.txt"

    def ready(running: dict[int, str]) -> bool:
        """A game finished, both workers and the resource tracker up."""
        return done.exists() and bool(done.read_text()) \
            and sum("spawn_main" in c for c in running.values()) == 2 \
            and any("resource_tracker" in c for c in running.values())

    killed = kill_midway(command(out), how, ready, env={**os.environ, SLOW: "0.003"},
                         start_timeout=60)
    check_unwound(killed, how, "arena")
    assert 0 < len(done.read_text().split()) < DEALS * 4, "the run was not caught in the middle"
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
    # the workers import the Slow agent from tests/lifetime.py: the repository on their path
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


def test_sigterm_to_an_arena_on_ray_shuts_ray_down(tmp_path: Path) -> None:
    """``ray.init`` installs its own SIGTERM handler (it aborts at exit): the arena puts its
    own back once Ray is up, so SIGTERM unwinds as with processes, Ray shuts down and nothing
    of its local cluster (GCS, raylet, workers) is left in the session."""
    pytest.importorskip("ray")
    out = tmp_path / "run"
    done = out / "done.txt"

    def ready(running: dict[int, str]) -> bool:
        """Ray's workers are up and a game is done."""
        return done.exists() and bool(done.read_text().split()) and any(
            "ray::" in c or "raylet" in c for c in running.values())

    killed = kill_midway([*command(out), "--backend", "ray"], "SIGTERM", ready,
                         env={**os.environ, SLOW: "0.003", "PYTHONPATH": str(ROOT)},
                         start_timeout=120, linger=20)
    check_unwound(killed, "SIGTERM", "arena")
