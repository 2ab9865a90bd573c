"""PPO's rollout workers as Ray actors (mjenv_agents.train.ray_rollouts): on a local Ray with 2
workers a few updates give the process backend's metrics and weights, to the digit (the
wall-clock speeds aside); Ray is shut down when training ends, normally, on SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
ray = pytest.importorskip("ray")

from mjenv_agents.policy import load_checkpoint  # noqa: E402
from mjenv_agents.train import ppo  # noqa: E402
from tests.arena.test_lifetime import session  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _args(out: Path, **changes: Any) -> ppo.Args:
    """A tiny run that still crosses a segment boundary (checkpoint_interval 2: the workers
    restart their streams) and sends a pool snapshot to the workers (pool_interval 1)."""
    base = ppo.Args(seed=4, out=str(out), threads=1, checkpoint_interval=2, updates=3,
                    games=4, decisions_per_update=48, minibatch_size=16, epochs=2,
                    channels=8, blocks=1, opponents=("self", "pool", "random"),
                    opponent_weights=(0.4, 0.3, 0.3), pool_interval=1, eval_deals=1,
                    eval_opponent="random", learning_rate=1e-3, rollout_workers=2)
    return replace(base, **changes)


def _rows(out: Path) -> list[dict[str, str]]:
    with open(out / "metrics.csv", newline="") as fh:
        return [r for r in csv.DictReader(fh) if r["ppo/policy_loss"]]


def _assert_same_run(a: Path, b: Path) -> None:
    rows_a, rows_b = _rows(a), _rows(b)
    assert [r["step"] for r in rows_a] == [r["step"] for r in rows_b] == ["1", "2", "3"]
    for ra, rb in zip(rows_a, rows_b, strict=True):
        for key in ppo.METRICS:
            if key not in ppo.TIMINGS:
                assert ra[key] == rb[key], (ra["step"], key)
    wa, wb = (load_checkpoint(p / "final.pt")[0].state_dict() for p in (a, b))
    assert all(torch.equal(wa[k], wb[k]) for k in wa)


def test_ray_actors_give_the_process_backends_run(tmp_path: Path) -> None:
    """Same seeds, 2 workers: the same metrics and final weights on processes and on a local
    Ray, which train() started and shut down; one Ray actor plays what the in-process rollout
    plays (stream 0), on a Ray the caller started and that train() leaves running."""
    assert not ray.is_initialized()
    ppo.train(_args(tmp_path / "processes"))
    ppo.train(_args(tmp_path / "ray", backend="ray"))
    assert not ray.is_initialized()
    _assert_same_run(tmp_path / "processes", tmp_path / "ray")

    ppo.train(_args(tmp_path / "inline", rollout_workers=1))
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        ppo.train(_args(tmp_path / "ray1", rollout_workers=1, backend="ray"))
        assert ray.is_initialized()
    finally:
        ray.shutdown()
    _assert_same_run(tmp_path / "inline", tmp_path / "ray1")


def test_backend_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="backend must be 'processes' or 'ray'"):
        ppo.Args(backend="dask")
    with pytest.raises(ValueError, match="ray_address must be empty unless"):
        ppo.Args(ray_address="auto")
    with pytest.raises(ValueError, match="device must be"):
        ppo.Args(device="gpu")


def _command(out: Path) -> list[str]:
    return [sys.executable, "-m", "mjenv_agents.train.ppo", "--out", str(out), "threads=1",
            "updates=200", "games=4", "decisions_per_update=48", "minibatch_size=16",
            "channels=8", "blocks=1", 'opponents=["self"]', "opponent_weights=[1.0]",
            "rollout_workers=2", "backend=ray", "checkpoint_interval=1000"]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("how", ["SIGTERM", pytest.param("SIGINT", marks=pytest.mark.slow)])
def test_an_interrupted_ray_run_leaves_no_process(how: str, tmp_path: Path) -> None:
    """SIGTERM to the trainer, or Ctrl-C (SIGINT to its process group, as a terminal sends
    it), once the actors play: the trainer shuts its local Ray down and nothing of it is left
    (Ray's GCS, raylet, workers and actors stay in the trainer's session). About 25 s each on
    2 busy cores; Ctrl-C unwinds through the same ``finally`` as SIGTERM, so the default suite
    runs SIGTERM only (``-m slow`` adds Ctrl-C)."""
    train = subprocess.Popen(_command(tmp_path), cwd=ROOT, start_new_session=True,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert train.stdout is not None
        for line in train.stdout:  # the first update: the actors are up and playing
            if line.startswith("update 1/"):
                break
        else:
            pytest.fail(f"the run ended before its first update ({train.wait()})")
        if how == "SIGINT":
            os.killpg(train.pid, signal.SIGINT)
        else:
            train.send_signal(signal.SIGTERM)
        train.communicate(timeout=60)
        # an uncaught KeyboardInterrupt ends Python by SIGINT; Terminated exits 128 + 15
        assert train.returncode == (-signal.SIGINT if how == "SIGINT" else 128 + signal.SIGTERM)
        deadline = time.monotonic() + 20
        while session(train.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert session(train.pid) == {}, "left behind"
    finally:
        for pid in session(train.pid):
            os.kill(pid, signal.SIGKILL)
