"""mjenv.procs: a process tied to its parent dies with it (kernel signal and the polling
fallback, and the race of a parent already gone), SIGTERM as an exception, thread settings."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import types
from pathlib import Path

import pytest

from mjenv import procs
from tests.lifetime import alive, wait_gone

ROOT = Path(__file__).resolve().parents[1]

# A parent that starts a child tied to it, prints the child's PID and sleeps until killed.
PARENT = textwrap.dedent("""\
    import os, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", sys.argv[1], str(os.getpid())])
    print(child.pid, flush=True)
    time.sleep(60)
""")
CHILD = textwrap.dedent("""\
    import sys, time
    from mjenv import procs
    if {poll}:
        procs._set_parent_death_signal = lambda signum: False
    print(procs.die_with_parent(int(sys.argv[1]), interval=0.05), file=sys.stderr, flush=True)
    time.sleep(60)
""")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("poll", [False, True], ids=["prctl", "poll"])
def test_a_child_dies_with_its_killed_parent(poll: bool) -> None:
    if not poll and not sys.platform.startswith("linux"):
        pytest.skip("prctl is Linux's")
    parent = subprocess.Popen([sys.executable, "-c", PARENT, CHILD.format(poll=poll)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, start_new_session=True)
    assert parent.stdout is not None and parent.stderr is not None
    child = int(parent.stdout.readline())
    try:
        how = parent.stderr.readline().strip()  # the child is tied once it has said how
        assert how == ("poll" if poll else "prctl")
        assert alive(child)
        parent.kill()
        parent.wait()
        assert wait_gone(child), "the child outlived its parent"
    finally:
        if alive(child):  # the parent's process group holds the child
            os.killpg(parent.pid, signal.SIGKILL)
        parent.stdout.close()
        parent.stderr.close()


def test_a_parent_already_gone_ends_the_child_at_once() -> None:
    """The race: the parent died before the child tied itself to it (here: the PID given is
    not the parent's), so the child exits instead of living on as an orphan."""
    code = "from mjenv import procs; procs.die_with_parent(os.getppid() + 1); print('alive')"
    run = subprocess.run([sys.executable, "-c", f"import os; {code}"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "alive" not in run.stdout


def test_sigterm_raises_terminated_inside_the_block_only() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(procs.Terminated) as caught, procs.sigterm_raises():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises at the next bytecode
    assert caught.value.code == 128 + signal.SIGTERM
    assert isinstance(caught.value, SystemExit) and not isinstance(caught.value, Exception)
    assert signal.getsignal(signal.SIGTERM) is before


def test_one_thread_env_keeps_a_users_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in procs.THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    procs.one_thread_env()
    assert os.environ["OMP_NUM_THREADS"] == "1" and os.environ["OPENBLAS_NUM_THREADS"] == "1"
    assert os.environ["MKL_NUM_THREADS"] == "3"


def test_one_thread_env_holds_an_imported_torch_to_one_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    fake = types.SimpleNamespace(set_num_threads=calls.append)
    monkeypatch.setitem(sys.modules, "torch", fake)
    for name in procs.THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    procs.one_thread_env()  # torch was imported first (a spawned worker's main module)
    assert calls == [1]
    monkeypatch.setenv("OMP_NUM_THREADS", "4")  # the user's choice: torch keeps it
    procs.one_thread_env()
    assert calls == [1]


def test_torch_threads_is_scoped_and_needs_torch_imported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    with procs.torch_threads(1):  # no torch: nothing to do, and nothing imported
        assert "torch" not in sys.modules
    calls: list[int] = []
    fake = types.SimpleNamespace(get_num_threads=lambda: 8, set_num_threads=calls.append)
    monkeypatch.setitem(sys.modules, "torch", fake)
    with procs.torch_threads(1):
        assert calls == [1]
    assert calls == [1, 8]


def test_available_cores_counts_what_this_process_may_use() -> None:
    cores = procs.available_cores()
    assert 1 <= cores <= (os.cpu_count() or 1)
