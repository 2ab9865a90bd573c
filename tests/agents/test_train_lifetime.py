"""``mjenv train`` killed while its data workers play leaves no process behind, and the re-run
resumes to the uninterrupted result (issue 14: the data workers used to run on at full CPU);
SIGTERM and Ctrl-C end it with one line that says how to resume. The start-and-kill loop is
the arena's (tests/lifetime.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from tests.lifetime import (  # noqa: E402
    HAS_PROC,
    ROOT,
    SLOW,
    SLOW_SPEC,
    check_unwound,
    kill_midway,
)

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="reads /proc")


def command(out: Path) -> list[str]:
    """The smoke config with a slowed random teacher (same moves either way) whose data two
    workers generate."""
    return [sys.executable, "-m", "mjenv", "train", "--config", "smoke", "--out", str(out),
            "--no-progress", "bc.workers=2", "bc.hands=8", f"bc.teacher={SLOW_SPEC}",
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


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "SIGINT"])
def test_a_killed_training_leaves_no_worker_and_resumes(how: str, tmp_path: Path,
                                                        reference: Path) -> None:
    out = tmp_path / "run"
    seen: list[float] = []

    def ready(running: dict[int, str]) -> bool:
        """The parent and its two data workers, for 0.3 s (playing by then)."""
        if len(running) < 3:
            return False
        seen.append(time.monotonic())
        return seen[-1] - seen[0] > 0.3

    killed = kill_midway(command(out), how, ready, env={**os.environ, SLOW: "0.01"})
    check_unwound(killed, how, "train")
    assert not (out / "bc" / "final.pt").exists(), "the run was not caught in the middle"
    if how == "SIGINT":
        return  # stopped by the same code as SIGTERM: its resume is checked there

    again = subprocess.run(command(out), cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    for stage in ("bc", "ppo"):
        assert same_weights(out / stage / "final.pt", reference / stage / "final.pt"), stage
