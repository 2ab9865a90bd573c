"""Behaviour cloning (mjenv_agents.train.bc): smoke run, learning, determinism, resume, configs."""

from __future__ import annotations

import csv
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import mjenv  # noqa: E402
from mjenv_agents.policy import PolicyAgent, load_checkpoint  # noqa: E402
from mjenv_agents.train import bc  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "bc_smoke.toml"


@pytest.fixture(scope="module")
def data() -> bc.Dataset:
    return bc.generate(hands=3, seed=5)


def _args(out: Path, **changes: object) -> bc.Args:
    base = bc.Args(seed=3, out=str(out), log_interval=1, checkpoint_interval=1000, threads=1,
                   hands=3, batch_size=32, learning_rate=3e-3, epochs=1, channels=8, blocks=1)
    return replace(base, **changes)  # type: ignore[arg-type]


def _metrics(out: Path) -> list[dict[str, str]]:
    with open(out / "metrics.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def _weights(path: Path) -> dict[str, Any]:
    net, _ = load_checkpoint(path)
    return net.state_dict()


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_dataset_format(data: bc.Dataset) -> None:
    n = len(data)
    assert n > 50
    assert data.obs.shape == (n, 86, 34) and data.obs.dtype == np.float32
    assert data.mask.shape == (n, 235) and data.mask.dtype == np.bool_
    assert data.action.shape == (n,) and data.action.dtype == np.int64
    assert data.mask[np.arange(n), data.action].all()  # the teacher's action is legal
    again = bc.generate(hands=3, seed=5)
    assert np.array_equal(again.obs, data.obs) and np.array_equal(again.action, data.action)


def test_smoke_config_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert bc.main(["--config", str(SMOKE), "--out", str(out)]) == 0
    with open(out / "config.toml", "rb") as fh:
        saved = tomllib.load(fh)
    assert saved["out"] == str(out) and saved["hands"] == 6
    rows = _metrics(out)
    assert rows and set(bc.METRICS) <= set(rows[0])
    assert all(np.isfinite(float(r["bc/loss"])) for r in rows)
    assert list(out.glob("events.out.tfevents.*"))  # TensorBoard (tensorboard installed)
    _, extra = load_checkpoint(out / "final.pt")
    assert extra["step"] == int(rows[-1]["step"]) and extra["args"]["channels"] == 16

    agent = PolicyAgent(str(out / "final.pt"))
    env = mjenv.raw_env()
    env.reset(seed=11)
    for seat in range(4):
        agent.reset(seat, 11)
    decisions = 0
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = agent.act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][action] == 1
        env.step(action)
        decisions += 1
    assert decisions > 0


def test_loss_decreases(tmp_path: Path, data: bc.Dataset) -> None:
    args = _args(tmp_path, batch_size=len(data), epochs=12)  # full batch: one step an epoch
    bc.train(args, data)
    losses = [float(r["bc/loss"]) for r in _metrics(tmp_path)]
    assert len(losses) == 12
    assert losses[-1] < 0.7 * losses[0], losses


def test_same_seed_same_updates(tmp_path: Path, data: bc.Dataset) -> None:
    runs = {}
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        out = tmp_path / name
        bc.train(_args(out, seed=seed, checkpoint_interval=1), data)
        runs[name] = out
    first = {k: [r["bc/loss"] for r in _metrics(v)][:3] for k, v in runs.items()}
    assert first["a"] == first["b"] != first["c"]
    one = {k: _weights(v / "checkpoint_1.pt") for k, v in runs.items()}  # after one update
    assert _same(one["a"], one["b"]) and not _same(one["a"], one["c"])
    assert _same(_weights(runs["a"] / "final.pt"), _weights(runs["b"] / "final.pt"))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU torch can see")
def test_cloning_on_the_gpu_is_reproducible(tmp_path: Path, data: bc.Dataset) -> None:
    """``device = "cuda"``: the same seed gives the same weights on the GPU (cuDNN's
    deterministic kernels); the checkpoint loads on the CPU. Skipped without a GPU."""
    for name in ("a", "b"):
        bc.train(_args(tmp_path / name, device="cuda"), data)
    assert _same(_weights(tmp_path / "a" / "final.pt"), _weights(tmp_path / "b" / "final.pt"))


def test_resume_matches_uninterrupted(tmp_path: Path, data: bc.Dataset,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    settings = {"epochs": 2, "checkpoint_interval": 2, "batch_size": 64}
    total = 2 * -(-len(data) // 64)
    bc.train(_args(whole, **settings), data)

    real_save = bc._save

    def save_then_die(path: Path, *a: object, **k: object) -> None:
        real_save(path, *a, **k)  # type: ignore[arg-type]
        raise KeyboardInterrupt  # killed right after the first checkpoint

    monkeypatch.setattr(bc, "_save", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        bc.train(_args(broken, **settings), data)
    monkeypatch.undo()
    assert [p.name for p in broken.glob("*.pt")] == ["checkpoint_2.pt"]
    assert [r["step"] for r in _metrics(broken)] == ["1", "2"]

    bc.train(_args(broken, **settings), data)  # the same command again: resumes at step 2
    _, extra = load_checkpoint(broken / "final.pt")
    assert extra["step"] == total > 2
    assert _same(_weights(whole / "final.pt"), _weights(broken / "final.pt"))
    loss = [(r["step"], r["bc/loss"]) for r in _metrics(whole)]
    assert [(r["step"], r["bc/loss"]) for r in _metrics(broken)] == loss

    before = (broken / "final.pt").stat().st_mtime_ns
    bc.train(_args(broken, **settings), data)  # finished: nothing more to do
    assert (broken / "final.pt").stat().st_mtime_ns == before


def test_bad_configs_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('seed = 1\nlearning_rat = 0.1\n')
    with pytest.raises(ValueError, match="unknown keys.*learning_rat"):
        bc.parse_args(["--config", str(bad)])
    with pytest.raises(ValueError, match="unknown keys.*nope"):
        bc.parse_args(["--config", str(SMOKE), "nope=3"])
    with pytest.raises(ValueError, match="epochs must be a int"):
        bc.parse_args(["--config", str(SMOKE), "epochs=two"])
    with pytest.raises(ValueError, match="not key=value"):
        bc.parse_args(["--config", str(SMOKE), "epochs"])
    bad.write_text('[algorithm]\nepochs = 1\n')
    with pytest.raises(ValueError, match="tables"):
        bc.parse_args(["--config", str(bad)])
    assert bc.main(["--config", str(bad)]) == 2

    args = bc.parse_args(["--config", str(SMOKE), "learning_rate=1", "epochs=3",
                          "--out", str(tmp_path / "x")])
    assert args.learning_rate == 1.0 and isinstance(args.learning_rate, float)
    assert args.epochs == 3 and args.out == str(tmp_path / "x")
    text = bc.args_to_toml(args)
    assert bc.args_from_dict(tomllib.loads(text)) == args


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the machine without a GPU")
def test_a_missing_gpu_is_refused_before_the_run_folder_is_written(tmp_path: Path,
                                                                    data: bc.Dataset) -> None:
    with pytest.raises(ValueError, match="device = 'cuda' asked for, but "):
        bc.train(_args(tmp_path / "gpu", device="cuda"), data)
    assert not (tmp_path / "gpu").exists()


def test_other_config_in_same_folder_refused(tmp_path: Path, data: bc.Dataset) -> None:
    bc.train(_args(tmp_path), data)
    with pytest.raises(ValueError, match="another config.*learning_rate"):
        bc.train(_args(tmp_path, learning_rate=1e-4), data)
    bc.train(_args(tmp_path, device="cpu"), data)  # the same config resumes (finished)
