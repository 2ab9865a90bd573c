"""PPO self-play (mjenv_agents.train.ppo): smoke run, determinism, resume, GAE, masking, configs."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from mjenv_agents.policy import (  # noqa: E402
    PolicyConfig,
    PolicyNet,
    frozen,
    inference_conv,
    load_checkpoint,
)
from mjenv_agents.train import ppo  # noqa: E402


def _args(out: Path, **changes: Any) -> ppo.Args:
    base = ppo.Args(seed=4, out=str(out), threads=1, checkpoint_interval=1, updates=2,
                    games=4, decisions_per_update=48, minibatch_size=16, epochs=2,
                    channels=8, blocks=1, opponents=("self", "pool", "random"),
                    opponent_weights=(0.4, 0.3, 0.3), pool_interval=1, eval_deals=1,
                    eval_opponent="random", learning_rate=1e-3)
    return replace(base, **changes)


def _rows(out: Path) -> list[dict[str, str]]:
    with open(out / "metrics.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def _weights(path: Path) -> dict[str, Any]:
    return load_checkpoint(path)[0].state_dict()


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ppo")
    ppo.train(_args(out))
    return out


def test_smoke_run_writes_everything(run: Path) -> None:
    for name in ("config.toml", "metrics.csv", "checkpoint_1.pt", "final.pt",
                 "snapshots/update_1.pt", "snapshots/update_2.pt", "learning_curve.png",
                 "eval/update_2/results.json"):
        assert (run / name).exists(), name
    rows = _rows(run)
    assert list(rows[0]) == ["step", *ppo.METRICS, "time"]
    train_rows = [r for r in rows if r["ppo/policy_loss"]]
    eval_rows = [r for r in rows if r["eval/score_diff"]]
    assert [r["step"] for r in train_rows] == ["1", "2"] and [r["step"] for r in eval_rows] == ["2"]
    for r in train_rows:
        assert np.isfinite(float(r["ppo/value_loss"])) and float(r["ppo/entropy"]) >= 0
        assert float(r["rollout/decisions"]) >= 48
    low, mid, high = (float(eval_rows[0][k]) for k in
                      ("eval/score_diff_low", "eval/score_diff", "eval/score_diff_high"))
    assert low <= mid <= high
    net, extra = load_checkpoint(run / "final.pt")
    assert extra["update"] == 2 and extra["stage"] == "ppo" and isinstance(net, PolicyNet)


def test_same_seed_same_updates_and_exact_resume(run: Path, tmp_path: Path) -> None:
    """The same seed gives the same updates (metrics and weights) on CPU, and a run killed
    after a checkpoint and resumed ends with the uninterrupted run's weights."""
    ppo.train(_args(tmp_path))
    for a, b in zip(_rows(tmp_path), _rows(run), strict=True):
        for key in ppo.METRICS:
            if key not in ppo.TIMINGS:
                assert a[key] == b[key], key
    (tmp_path / "final.pt").unlink()  # as if killed after the first update's checkpoint
    ppo.train(_args(tmp_path))
    assert _same(_weights(tmp_path / "final.pt"), _weights(run / "final.pt"))
    assert [r["step"] for r in _rows(tmp_path) if r["ppo/policy_loss"]] == ["1", "2"]
    assert ppo.train(_args(tmp_path)) == tmp_path / "final.pt"  # finished: a no-op
    with pytest.raises(ValueError, match="another config"):
        ppo.train(_args(tmp_path, learning_rate=5e-4))


def test_rollout_worker_processes(tmp_path: Path) -> None:
    """rollout_workers=2: hands are played in two processes; the run is reproducible."""
    args = _args(tmp_path / "a", updates=1, rollout_workers=2, opponents=("self",),
                 opponent_weights=(1.0,))
    ppo.train(args)
    rows = [r for r in _rows(tmp_path / "a") if r["ppo/policy_loss"]]
    assert float(rows[0]["rollout/decisions"]) >= 48
    ppo.train(replace(args, out=str(tmp_path / "b")))
    assert _same(_weights(tmp_path / "a" / "final.pt"), _weights(tmp_path / "b" / "final.pt"))


def test_the_update_runs_on_the_rollout_workers_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """update_threads=0: with rollout workers the update takes as many threads as there are
    workers (they wait while it runs), at most the cores; an explicit count wins; with one
    worker (the learner's own process collects) it keeps ``threads``."""
    monkeypatch.setattr(ppo, "available_cores", lambda: 2)
    assert ppo.update_threads(ppo.Args(threads=1)) == 1
    assert ppo.update_threads(ppo.Args(threads=0)) == 0  # torch's own count, untouched
    assert ppo.update_threads(ppo.Args(threads=1, rollout_workers=2)) == 2
    assert ppo.update_threads(ppo.Args(threads=1, rollout_workers=8)) == 2
    assert ppo.update_threads(ppo.Args(threads=1, rollout_workers=8, backend="ray")) == 2
    assert ppo.update_threads(ppo.Args(threads=1, rollout_workers=2, update_threads=3)) == 3
    assert ppo.update_threads(ppo.Args(threads=2, update_threads=1)) == 1
    with pytest.raises(ValueError, match="update_threads"):
        ppo.Args(update_threads=-1)


def test_the_update_threads_are_the_run_s_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              ) -> None:
    """The update runs on update_threads and gives the threads back after it; the weights
    are the same run after run."""
    seen: list[int] = []
    update = ppo.ppo_update

    def spy(*a: Any, **k: Any) -> dict[str, float]:
        seen.append(torch.get_num_threads())
        return update(*a, **k)

    monkeypatch.setattr(ppo, "ppo_update", spy)
    args = _args(tmp_path / "a", updates=1, update_threads=2, opponents=("self",),
                 opponent_weights=(1.0,))
    ppo.train(args)
    assert seen == [2] and torch.get_num_threads() == 1
    ppo.train(replace(args, out=str(tmp_path / "b")))
    assert _same(_weights(tmp_path / "a" / "final.pt"), _weights(tmp_path / "b" / "final.pt"))


def test_learning_curve_starts_at_the_initial_network(tmp_path: Path) -> None:
    ppo.train(_args(tmp_path, updates=2, eval_interval=1, opponents=("self",),
                    opponent_weights=(1.0,)))
    steps = [r["step"] for r in _rows(tmp_path) if r["eval/score_diff"]]
    assert steps == ["0", "1", "2"]
    assert (tmp_path / "snapshots" / "update_0.pt").exists()


def test_learning_curve_points_play_on_one_pool_of_arena_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mjenv.arena.runner import WorkerPool

    executors: list[int] = []
    begin = WorkerPool.begin_run

    def spy(self: WorkerPool) -> Any:
        executor, run = begin(self)
        executors.append(id(executor))
        return executor, run

    monkeypatch.setattr(WorkerPool, "begin_run", spy)
    args = _args(tmp_path / "pooled", updates=2, eval_interval=1, eval_deals=2,
                 eval_workers=2, opponents=("self",), opponent_weights=(1.0,))
    ppo.train(args)
    assert len(executors) == 3 and len(set(executors)) == 1  # points 0, 1, 2: one pool
    ppo.train(replace(args, out=str(tmp_path / "inline"), eval_workers=1))
    curve = [{k: v for k, v in r.items() if k.startswith("eval/")}
             for r in _rows(tmp_path / "pooled") if r["eval/score_diff"]]
    assert curve == [{k: v for k, v in r.items() if k.startswith("eval/")}
                     for r in _rows(tmp_path / "inline") if r["eval/score_diff"]]


def test_rollout_records_legal_actions_and_gae() -> None:
    args = _args(Path("unused"), games=3, decisions_per_update=40, gamma=0.9, gae_lambda=0.8)
    torch.manual_seed(0)
    net = PolicyNet(PolicyConfig(channels=8, blocks=1))
    net.eval()
    rollout = ppo.Rollout(args, net, [], 0)
    batch = rollout.collect()
    assert len(batch) >= 40
    assert batch.mask[torch.arange(len(batch)), batch.action].all()
    assert torch.isfinite(batch.logprob).all() and (batch.logprob <= 0).all()
    assert torch.allclose(batch.ret, batch.advantage + batch.value)
    # GAE on a hand-made trajectory: values v, one reward R at the end
    obs, mask = np.zeros((86, 34), np.float32), np.ones(235, bool)
    v = [0.5, -0.2, 0.1]
    steps = [(obs, mask, 0, -1.0, x) for x in v]
    got = rollout._batch([steps], [2.0]).advantage.tolist()
    d = [0 + 0.9 * v[1] - v[0], 0 + 0.9 * v[2] - v[1], 2.0 - v[2]]
    want = [d[0] + 0.72 * (d[1] + 0.72 * d[2]), d[1] + 0.72 * d[2], d[2]]
    assert np.allclose(got, want, atol=1e-6)


def test_rollout_takes_the_planes_from_the_env() -> None:
    """With ``features = "shanten-v1"`` the rollout reads the env's ``mjenv-v1+shanten``
    observations: the planes ``augment`` computes from the ``mjenv-v1`` part, for the
    learner's decisions against every kind of opponent."""
    from mjenv_agents.features import augment

    args = _args(Path("unused"), games=4, decisions_per_update=48,
                 opponents=("self", "pool", "greedy", "rule"),
                 opponent_weights=(0.25, 0.25, 0.25, 0.25))
    torch.manual_seed(0)
    net = PolicyNet(PolicyConfig(channels=8, blocks=1, features="shanten-v1"))
    snapshot = PolicyNet(PolicyConfig(channels=8, blocks=1, features="shanten-v1"))
    net.eval()
    snapshot.eval()
    batch = ppo.Rollout(args, net, [snapshot], 0).collect()
    obs, mask = batch.obs.numpy(), batch.mask.numpy()
    assert obs.shape[1:] == (86 + 15, 34) and len(batch) >= 48
    assert np.array_equal(augment("shanten-v1", np.ascontiguousarray(obs[:, :86]), mask), obs)


def test_rollout_play_is_pinned() -> None:
    """What the rollout plays from these seeds, pinned. The networks are all zero (uniform
    over the legal actions), so the run depends on the engine, the agents, the schedule and the
    random streams only. Until the rollout played the agents' seats as they come and drew with
    Gumbel noise (one network pass for all the hands waiting on a network, not one per round
    of single decisions; about 20 % less collection time), these were the numbers of the first
    implementation, one ``raw_env`` per hand: 120 decisions, 642 steps."""
    import hashlib

    args = _args(Path("unused"), games=6, decisions_per_update=96,
                 opponents=("self", "pool", "greedy", "rule"),
                 opponent_weights=(0.3, 0.2, 0.25, 0.25))

    def uniform() -> PolicyNet:
        net = PolicyNet(PolicyConfig(channels=8, blocks=1, features="shanten-v1"))
        with torch.no_grad():
            for p in net.parameters():
                p.zero_()
        return net.eval()

    rollout = ppo.Rollout(args, uniform(), [uniform()], 0)
    batch = rollout.collect()
    assert (len(batch), rollout.stepped) == (109, 663)
    assert hashlib.sha256(batch.action.numpy().tobytes()).hexdigest()[:16] == "9a829b4cb1a87a5c"
    assert hashlib.sha256(batch.obs.numpy().tobytes()).hexdigest()[:16] == "e1a5d60aa9175449"
    assert float(batch.logprob.sum()) == pytest.approx(-226.14, abs=1e-2)


def test_rollout_reads_the_learner_weights_of_each_collection() -> None:
    """The rollout runs frozen copies of its networks (:func:`frozen`); the learner's is made
    again for every collection, so the log-probabilities it stores are those of the weights the
    update changed, not of a stale copy. (Hands in play when a collection ends go on in the
    next one with the steps they have, so the test restarts the rollout: fresh hands.)"""
    torch.manual_seed(3)
    args = _args(Path("unused"), games=4, decisions_per_update=40, opponents=("self",),
                 opponent_weights=(1.0,))
    net = PolicyNet(PolicyConfig(channels=8, blocks=1, features="shanten-v1")).eval()
    rollout = ppo.Rollout(args, net, [], 0)
    for start in range(2):
        rollout.restart(start)
        batch = rollout.collect()
        with torch.no_grad():
            logits, _ = net(batch.obs, batch.mask)
            logp = torch.log_softmax(logits, dim=1).gather(1, batch.action[:, None]).squeeze(1)
        assert torch.allclose(logp, batch.logprob, atol=1e-5)
        with torch.no_grad():  # what an update does between collections
            for p in net.parameters():
                p.add_(torch.randn_like(p) * 0.5)


@pytest.mark.parametrize("rows", [1, 2, 5, 17])
def test_frozen_network_computes_what_the_network_computes(rows: int) -> None:
    """:func:`frozen` traces the forward: the same logits and values to the bit, at any batch
    size, under the convolution the batch size picks; the copy keeps the weights it was made
    with."""
    torch.manual_seed(rows)
    net = PolicyNet(PolicyConfig(channels=8, blocks=2, features="shanten-v1+rule",
                                 hint_bias=True)).eval()
    forward = frozen(net)
    assert forward is not net
    obs = torch.rand(rows, net.config.input_planes, 34)
    mask = torch.rand(rows, 235) < 0.2
    mask[:, 0] = True
    with torch.inference_mode(), inference_conv(rows, torch.device("cpu")):
        expected, got = net(obs, mask), forward(obs, mask)
        assert torch.equal(got[0], expected[0]) and torch.equal(got[1], expected[1])
        with torch.no_grad():
            net.policy_head.bias.add_(1.0)
        assert torch.equal(forward(obs, mask)[0], expected[0])


def test_gumbel_sampling_draws_from_the_softmax() -> None:
    """``sample_gumbel`` draws each action with its softmax probability (within 4 standard
    errors over 200,000 draws), never one of probability 0, the same draws from the same
    generator state."""
    logits = torch.tensor([0.0, 1.0, 2.0, -0.5, 0.0])
    legal = torch.tensor([True, True, True, True, False])
    logp = torch.log_softmax(torch.where(legal, logits, -1.7e38), dim=0).expand(200_000, 5)
    first = ppo.sample_gumbel(logp, torch.Generator().manual_seed(5))
    assert torch.equal(first, ppo.sample_gumbel(logp, torch.Generator().manual_seed(5)))
    freq = torch.bincount(first, minlength=5).double() / len(first)
    p = logp[0].exp().double()
    assert freq[4] == 0
    assert torch.all((freq - p).abs() <= 4 * torch.sqrt(p * (1 - p) / len(first)) + 1e-12)


def test_small_inference_batches_use_the_native_convolution() -> None:
    """Batches of 2 to 8 rows run torch's native convolution (oneDNN's set-up dominates
    there): the same logits to float precision, and oneDNN is back on afterwards."""
    torch.manual_seed(0)
    net = PolicyNet(PolicyConfig(channels=8, blocks=1, features="shanten-v1"))
    net.eval()
    obs = torch.rand(3, 86 + 15, 34)
    mask = torch.ones(3, 235, dtype=torch.bool)
    assert torch.backends.mkldnn.enabled
    with torch.inference_mode():
        expected, _ = net(obs, mask)
        with inference_conv(3, torch.device("cpu")):
            assert not torch.backends.mkldnn.enabled
            got, _ = net(obs, mask)
        with inference_conv(1, torch.device("cpu")):  # one row: oneDNN's own fast path
            assert torch.backends.mkldnn.enabled
    assert torch.backends.mkldnn.enabled
    assert torch.allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_masked_entropy_ignores_illegal_actions() -> None:
    net = PolicyNet(PolicyConfig(channels=8, blocks=1))
    mask = torch.zeros(2, 235, dtype=torch.bool)
    mask[0, [2, 5]] = True
    mask[1, 7] = True
    with torch.no_grad():
        logits, _ = net(torch.rand(2, 86, 34), mask)
    h = ppo.masked_entropy(logits)
    assert torch.isfinite(h).all()
    assert float(h[1]) == pytest.approx(0.0, abs=1e-6)  # one legal action: no uncertainty
    assert 0 < float(h[0]) <= np.log(2) + 1e-6


def test_bad_args_are_refused() -> None:
    with pytest.raises(ValueError, match="opponent_weights"):
        ppo.Args(opponents=("self", "greedy"), opponent_weights=(1.0,))
    with pytest.raises(ValueError, match="gae_lambda"):
        ppo.Args(gae_lambda=1.5)
    with pytest.raises(ValueError, match="Args.games must be"):
        ppo.Args(games=0)
    with pytest.raises(ValueError, match="must be a int"):
        ppo.Args(updates=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ppo.Args(opponents=("self", "no.such.module:Agent x=("), opponent_weights=(1.0, 1.0))


def test_devices(tmp_path: Path) -> None:
    """``auto`` is the CPU where torch sees no GPU; ``cuda`` there is one line saying why,
    before the run folder is written; a device torch does not know is refused when read."""
    from mjenv_agents.train import common

    assert common.resolve_device("cpu") == torch.device("cpu")
    with pytest.raises(ValueError, match="device must be"):
        ppo.Args(device="tpu")
    if torch.cuda.is_available():
        assert common.resolve_device("auto") == torch.device("cuda")
        return
    assert common.resolve_device("auto") == torch.device("cpu")
    for name in ("cuda", "cuda:1"):
        with pytest.raises(ValueError, match=f"device = '{name}' asked for, but ") as caught:
            common.resolve_device(name)
        assert "\n" not in str(caught.value) and "device = \"cpu\" or \"auto\"" in str(caught.value)
    with pytest.raises(ValueError, match="asked for"):
        ppo.train(_args(tmp_path / "gpu", device="cuda"))
    assert not (tmp_path / "gpu").exists()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU torch can see")
def test_a_run_on_the_gpu_is_reproducible_resumes_and_loads_on_the_cpu(tmp_path: Path) -> None:
    """``device = "cuda"``: the learner and the rollout's inference on the GPU. The same seeds
    give the same weights there, also across a stop and resume (cuDNN's deterministic
    kernels, common.learner_device), and the checkpoints load on a CPU machine. Run on a lent
    GPU (scripts/gpu_check.py says how); skipped elsewhere."""
    whole = ppo.train(_args(tmp_path / "whole", device="cuda"))
    net, extra = load_checkpoint(whole, "cpu")
    assert extra["update"] == 2 and next(net.parameters()).device.type == "cpu"
    resumed = tmp_path / "resumed"
    ppo.train(_args(resumed, device="cuda"))
    (resumed / "final.pt").unlink()  # as if stopped after the first update's checkpoint
    ppo.train(_args(resumed, device="cuda"))
    assert [r["step"] for r in _rows(resumed) if r["ppo/policy_loss"]] == ["1", "2"]
    assert _same(_weights(whole), _weights(resumed / "final.pt"))


def test_a_fresh_network_gets_the_hint_bias_with_the_rule_features() -> None:
    """PPO without ``init`` builds its network as cloning does (PolicyConfig.fresh): the hint
    bias comes with a feature set holding the rule part, and only then."""
    hinted = ppo.make_net(ppo.Args(features="shanten-v1+rule", channels=4, blocks=1))
    assert hinted.config.hint_bias
    plain = ppo.make_net(ppo.Args(features="shanten-v1", channels=4, blocks=1))
    assert not plain.config.hint_bias
