"""Worker processes: the same results as in-process at any worker count, workers that die with
the process that made the batch, failures that surface as errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import mjenv.vector.workers as vector_workers
from mjenv.vector import LearnerVectorEnv, VectorMahjongEnv
from mjenv.vector.workers import (
    WorkerError,
    auto_cpus,
    can_pin,
    pinned_cpus,
    split,
    worker_cpus,
)
from tests.lifetime import alive, wait_gone

from .helpers import choose
from .test_seeds import trajectories

ROOT = Path(__file__).resolve().parents[2]


def test_split_is_consecutive_and_balanced() -> None:
    assert split(5, 2) == [(0, 2), (2, 5)]
    assert split(2, 4) == [(0, 1), (1, 2)]
    assert split(7, 3) == [(0, 2), (2, 4), (4, 7)]


def test_workers_give_the_in_process_results() -> None:
    options = {"oracle": True, "encoder": "mjenv-v1+shanten"}
    alone = trajectories(5, 12, 120, workers=0, **options)
    assert trajectories(5, 12, 120, workers=2, **options) == alone
    assert trajectories(5, 12, 120, workers=3, **options) == alone


def test_learner_workers_give_the_in_process_results() -> None:
    results = []
    for workers in (0, 2):
        with LearnerVectorEnv(4, "random", num_workers=workers,
                              autoreset_mode="same_step") as env:
            obs, _ = env.reset(seed=5)
            run = []
            for t in range(80):
                obs, rewards, terminated, _, infos = env.step(choose(obs["action_mask"], t))
                run.append((obs["observation"].tobytes(), rewards.tolist(),
                            terminated.tolist(), sorted(infos)))
            results.append(run)
    assert results[0] == results[1]


pinnable = pytest.mark.skipif(not can_pin(),
                              reason="pinning needs os.sched_setaffinity (Linux)")


@pinnable
def test_pinned_workers_each_keep_to_their_own_cpu() -> None:
    """``pin_workers``: worker j runs on the j-th CPU this process may use, and only there
    (round robin past the last one); both batch classes pass it on."""
    cpus = sorted(os.sched_getaffinity(0))
    assert worker_cpus(3) == [cpus[j % len(cpus)] for j in range(3)]
    for make in (lambda: VectorMahjongEnv(4, num_workers=2, pin_workers=True),
                 lambda: LearnerVectorEnv(4, "random", num_workers=2, pin_workers=True)):
        with make() as env:
            got = [os.sched_getaffinity(pid) for pid in env.worker_pids]
        assert got == [{cpus[0]}, {cpus[1 % len(cpus)]}]


@pinnable
def test_pinned_and_free_workers_give_the_in_process_results() -> None:
    alone = trajectories(5, 13, 100, workers=0)
    for pin in (True, False):
        assert trajectories(5, 13, 100, workers=2, pin_workers=pin) == alone


def test_pin_workers_takes_a_flag_or_auto_and_true_needs_a_platform_that_pins(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Anything but True, False or "auto" is refused with one line; so is pinning where the
    platform cannot pin, before any worker starts, while "auto" then leaves the workers to the
    scheduler. Without workers there is nothing to pin."""
    for make in (VectorMahjongEnv, lambda n, **kw: LearnerVectorEnv(n, "random", **kw)):
        for bad in ("yes", 1, None):
            with pytest.raises(ValueError,
                               match=f"pin_workers must be True, False or 'auto', got {bad!r}"):
                make(2, num_workers=2, pin_workers=bad)
    started = []
    monkeypatch.setattr(vector_workers.WorkerPool, "__init__",
                        lambda *a, **k: started.append(1))  # never reached
    monkeypatch.delattr(vector_workers.os, "sched_setaffinity", raising=False)
    with pytest.raises(ValueError, match=r"pin_workers=True needs os.sched_setaffinity"):
        VectorMahjongEnv(2, num_workers=2, pin_workers=True)
    assert not started
    assert pinned_cpus("auto", 2) is None and auto_cpus(4) is None
    with VectorMahjongEnv(2, pin_workers=True) as env:  # no workers: nothing to pin
        assert env.worker_pids == [] and env.worker_cpus == []


@pinnable
def test_auto_pins_workers_that_spread_evenly_over_the_cpus(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``pin_workers="auto"`` pins k workers exactly when k is a multiple of the CPUs this
    process may use (each CPU then holds k / cpus of them, round robin), and otherwise leaves
    them to the scheduler; True pins whatever k is."""
    monkeypatch.setattr(vector_workers.os, "sched_getaffinity", lambda pid: {3, 5, 8, 9})
    assert auto_cpus(4) == [3, 5, 8, 9]
    assert auto_cpus(8) == [3, 5, 8, 9, 3, 5, 8, 9]
    assert [auto_cpus(k) for k in (1, 2, 3, 5, 6)] == [None] * 5
    assert pinned_cpus(True, 2) == [3, 5] and pinned_cpus(False, 4) is None
    assert pinned_cpus("auto", 4) == [3, 5, 8, 9]


@pinnable
def test_the_default_pins_as_many_workers_as_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """By default (``"auto"``) a batch with as many workers as usable CPUs keeps each worker
    to its own (the process is shown two of the machine's CPUs, or its one CPU twice), and
    ``worker_cpus`` says so; ``pin_workers=False`` leaves them free."""
    affinity = os.sched_getaffinity
    cpus = sorted(affinity(0))[:2]
    monkeypatch.setattr(vector_workers.os, "sched_getaffinity", lambda pid: set(cpus))
    expected = [cpus[0], cpus[1 % len(cpus)]]
    with VectorMahjongEnv(4, num_workers=2) as env:
        assert env.worker_cpus == expected
        assert [affinity(pid) for pid in env.worker_pids] == [{c} for c in expected]
    with LearnerVectorEnv(4, "random", num_workers=2, pin_workers=False) as env:
        assert env.worker_cpus == [None, None]


def test_close_reaps_the_workers() -> None:
    env = VectorMahjongEnv(3, num_workers=2)
    pids = env.worker_pids
    assert len(pids) == 2 and all(alive(p) for p in pids)
    env.reset(seed=0)
    env.close()
    assert all(wait_gone(p, 10.0) for p in pids)
    env.close()  # twice is fine
    with pytest.raises(WorkerError, match="closed"):
        env.reset(seed=0)


def test_a_failing_worker_is_an_error() -> None:
    with pytest.raises(WorkerError, match="worker 0 failed"):
        LearnerVectorEnv(2, "no.such.module:Agent", num_workers=1)


def test_a_worker_that_dies_is_an_error_with_its_exit_code() -> None:
    env = VectorMahjongEnv(4, num_workers=2)
    actions = choose(env.reset(seed=0).action_mask, 0)
    os.kill(env.worker_pids[1], signal.SIGKILL)
    with pytest.raises(WorkerError, match=r"worker 1 died \(exit code -9\)"):
        env.step(actions)
    with pytest.raises(WorkerError, match="closed"):
        env.reset(seed=0)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_worker_dead_before_the_step_is_sent_is_an_error_too() -> None:
    """Once the killed worker has exited its end of the pipe is closed, and sending the step
    fails (BrokenPipeError) before any answer is awaited: the same one error."""
    env = VectorMahjongEnv(4, num_workers=2)
    actions = choose(env.reset(seed=0).action_mask, 0)
    pid = env.worker_pids[1]
    os.kill(pid, signal.SIGKILL)
    stat = Path(f"/proc/{pid}/stat")
    deadline = time.monotonic() + 10
    while stat.read_text().rsplit(")", 1)[1].split()[0] != "Z":  # exited, not yet reaped
        assert time.monotonic() < deadline
        time.sleep(0.01)
    with pytest.raises(WorkerError, match=r"worker 1 died \(exit code -9\)"):
        env.step(actions)


PARENT = textwrap.dedent("""\
    import sys, time
    sys.path.insert(0, sys.argv[1])
    from mjenv.vector import VectorMahjongEnv
    env = VectorMahjongEnv(4, num_workers=2)
    env.reset(seed=1)
    print(*env.worker_pids, flush=True)
    time.sleep(120)
""")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_die_with_a_killed_parent() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(ROOT)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert parent.stdout is not None
    try:
        pids = [int(p) for p in parent.stdout.readline().split()]
        assert len(pids) == 2 and all(alive(p) for p in pids)
        parent.kill()
        parent.wait()
        assert all(wait_gone(p, 10.0) for p in pids), "a worker outlived its parent"
    finally:
        if parent.poll() is None:
            parent.kill()
        parent.stdout.close()
        for p in _group_members(parent.pid):
            os.kill(p, signal.SIGKILL)


def _group_members(pgid: int) -> list[int]:
    """Processes still alive in the test parent's session (cleanup only)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == pgid and alive(int(entry.name)):
                    out.append(int(entry.name))
            except OSError:
                continue
    return out


def test_worker_batches_equal_in_process_arrays() -> None:
    with VectorMahjongEnv(3, num_workers=2) as env, VectorMahjongEnv(3) as alone:
        a = env.reset(seed=2)
        b = alone.reset(seed=2)
        assert np.array_equal(a.observation, b.observation)
        assert np.array_equal(a.action_mask, b.action_mask)


def test_same_seeds_same_games_through_raw_env_any_n_any_workers() -> None:
    """Issue 15's acceptance in one test: slot k is raw_env reset with its episode seeds,
    whether the batch has 2 or 4 games and 0 or 2 workers."""
    from .helpers import Reference

    seed, steps = 77, 90
    ref = Reference(4, seed)
    runs = {(n, w): VectorMahjongEnv(n, num_workers=w) for n, w in ((2, 0), (4, 0), (4, 2))}
    batches = {key: env.reset(seed=seed) for key, env in runs.items()}
    try:
        for t in range(steps):
            actions = choose(np.stack([ref.observe(k)["action_mask"] for k in range(4)]), t)
            for k in range(4):
                want = ref.observe(k)["observation"]
                for (n, _w), batch in batches.items():
                    if k < n:
                        assert np.array_equal(batch.observation[k], want), (t, k, n, _w)
            for key, env in runs.items():
                batches[key] = env.step(actions[:key[0]])
            for k in range(4):
                ref.step(k, int(actions[k]))
    finally:
        for env in runs.values():
            env.close()
