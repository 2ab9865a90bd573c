"""``mjenv train`` killed while its data workers play leaves no process behind, and the re-run
resumes to the uninterrupted result (issue 14: the data workers used to run on at full CPU)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from tests.arena.test_lifetime import SLOW, session  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TEACHER = "tests.arena.test_lifetime:Slow"
"""A random teacher that the killed run slows down (same moves either way)."""
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def command(out: Path) -> list[str]:
    return [sys.executable, "-m", "mjenv", "train", "--config", "smoke", "--out", str(out),
            "--no-progress", "bc.workers=2", "bc.hands=8", f"bc.teacher={TEACHER}",
            "ppo.updates=1", "evaluate.deals=1"]


def weights(path: Path) -> dict[str, object]:
    return dict(torch.load(path, weights_only=True)["model"])


def same_weights(a: Path, b: Path) -> bool:
    wa, wb = weights(a), weights(b)
    return wa.keys() == wb.keys() and all(torch.equal(wa[k], wb[k]) for k in wa)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("whole")
    done = subprocess.run(command(out), cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_a_killed_training_leaves_no_worker_and_resumes(how: str, tmp_path: Path,
                                                        reference: Path) -> None:
    out = tmp_path / "run"
    env = {**os.environ, SLOW: "0.01"}
    train = subprocess.Popen(command(out), cwd=ROOT, env=env, start_new_session=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while len(session(train.pid)) < 3:  # the parent and its two data workers
            assert train.poll() is None, train.communicate()
            assert time.monotonic() < deadline, "the data workers never started"
            time.sleep(0.05)
        time.sleep(0.3)
        train.send_signal(getattr(signal, how))
        train.communicate(timeout=60)
        deadline = time.monotonic() + 10
        while session(train.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session(train.pid) == {}, "left behind"
    finally:
        for pid in session(train.pid):
            os.kill(pid, signal.SIGKILL)
    assert not (out / "bc" / "final.pt").exists(), "the run was not caught in the middle"

    again = subprocess.run(command(out), cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    for stage in ("bc", "ppo"):
        assert same_weights(out / stage / "final.pt", reference / stage / "final.pt"), stage
