"""The torch policy: masking, checkpoints, and ``PolicyAgent`` playing the env (CPU only)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import mjenv  # noqa: E402
from mjenv.agent import act_batch, make_agent  # noqa: E402
from mjenv_agents.policy import (  # noqa: E402
    PolicyAgent,
    PolicyConfig,
    PolicyNet,
    load_checkpoint,
    masked_value,
    save_checkpoint,
)

SMALL = PolicyConfig(channels=16, blocks=2)


def _net(seed: int = 0, config: PolicyConfig = SMALL) -> PolicyNet:
    torch.manual_seed(seed)
    return PolicyNet(config).eval()


def _batch(rng: np.random.Generator, n: int, density: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    obs = rng.random((n, 86, 34), dtype=np.float32)
    masks = (rng.random((n, 235)) < density).astype(np.int8)
    masks[np.arange(n), rng.integers(235, size=n)] = 1  # at least one legal action per row
    return obs, masks


@pytest.fixture
def checkpoint(tmp_path: Path) -> Path:
    path = tmp_path / "net.pt"
    save_checkpoint(path, _net(1), {"step": 7, "args": {"lr": 3e-4, "name": "smoke"}})
    return path


def test_default_config_and_shapes() -> None:
    config = PolicyConfig()
    assert (config.obs_shape, config.num_actions, config.channels, config.blocks) == \
        ((86, 34), 235, 64, 4)
    net = PolicyNet(config)
    obs, masks = _batch(np.random.default_rng(0), 3)
    logits, value = net(torch.from_numpy(obs), torch.from_numpy(masks))
    assert logits.shape == (3, 235) and value.shape == (3,)
    assert logits.dtype == torch.float32
    with pytest.raises(ValueError, match="obs must have shape"):
        net(torch.zeros(3, 85, 34), torch.ones(3, 235))
    with pytest.raises(ValueError, match="channels"):
        PolicyConfig(channels=0)


@pytest.mark.parametrize("seed", range(5))
def test_masked_actions_get_exactly_zero_probability(seed: int) -> None:
    net = _net(seed)
    with torch.no_grad():  # scale the weights up: large logits are the hard case
        for p in net.policy_head.parameters():
            p.mul_(50.0)
    rng = np.random.default_rng(seed)
    obs, masks = _batch(rng, 64, density=rng.uniform(0.01, 0.5))
    logits, _ = net(torch.from_numpy(obs), torch.from_numpy(masks))
    probs = torch.softmax(logits, dim=1)
    log_probs = torch.log_softmax(logits, dim=1)
    illegal = torch.from_numpy(masks == 0)
    assert probs.dtype == torch.float32
    assert torch.all(probs[illegal] == 0.0)
    assert torch.all(logits[illegal] == masked_value(torch.float32))
    assert torch.isfinite(log_probs).all()
    assert torch.allclose(probs.sum(dim=1), torch.ones(64))


def test_an_all_zero_mask_row_gives_no_nan(checkpoint: Path) -> None:
    net = _net()
    obs, masks = _batch(np.random.default_rng(1), 4)
    masks[2] = 0
    logits, value = net(torch.from_numpy(obs), torch.from_numpy(masks))
    probs = torch.softmax(logits, dim=1)
    assert not torch.isnan(probs).any() and not torch.isnan(logits).any()
    assert torch.isfinite(torch.log_softmax(logits, dim=1)).all()
    assert torch.allclose(probs[2], torch.full((235,), 1 / 235))  # uniform, documented
    assert torch.isfinite(value).all()
    # the agent refuses a decision with no legal action
    with pytest.raises(ValueError, match="no legal action: the mask of row 2"):
        PolicyAgent(str(checkpoint)).act_batch(obs, masks)


def test_train_and_eval_modes_agree() -> None:
    net = _net(3)
    obs, masks = _batch(np.random.default_rng(3), 5)
    o, m = torch.from_numpy(obs), torch.from_numpy(masks)
    eval_out = net.eval()(o, m)
    train_out = net.train()(o, m)
    for a, b in zip(eval_out, train_out, strict=True):
        assert torch.equal(a, b)


def test_save_load_round_trip(checkpoint: Path) -> None:
    original = _net(1)
    loaded, extra = load_checkpoint(checkpoint)
    assert extra == {"step": 7, "args": {"lr": 3e-4, "name": "smoke"}}
    assert loaded.config == SMALL and not loaded.training
    obs, masks = _batch(np.random.default_rng(4), 8)
    o, m = torch.from_numpy(obs), torch.from_numpy(masks)
    with torch.no_grad():
        for a, b in zip(original(o, m), loaded(o, m), strict=True):
            assert torch.equal(a, b)
    raw = torch.load(checkpoint, weights_only=True)
    assert raw["format"] == "mjenv-policy" and raw["version"] == 1
    assert raw["config"] == {"obs_shape": (86, 34), "num_actions": 235, "channels": 16,
                             "blocks": 2, "features": "none", "hint_bias": False}


def test_checkpoint_without_features_key_loads(tmp_path: Path) -> None:
    """Checkpoints written before ``PolicyConfig.features`` existed still load."""
    path = tmp_path / "old.pt"
    save_checkpoint(path, _net(1))
    raw = torch.load(path, weights_only=True)
    del raw["config"]["features"]
    torch.save(raw, path)
    loaded, _ = load_checkpoint(path)
    assert loaded.config.features == "none"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "something-else"}, "not an 'mjenv-policy' checkpoint"),
        ({"version": 2}, "version 2 is not supported"),
        ({"config": {"obs_shape": (86, 34), "num_actions": 235, "channels": 16}},
         "missing keys \\['blocks'\\]"),
        ({"config": {"obs_shape": (86, 34), "num_actions": 235, "channels": 16, "blocks": 2,
                     "width": 3}}, "unknown keys \\['width'\\]"),
        ({"config": {"obs_shape": (86, 34), "num_actions": 235, "channels": 8, "blocks": 2}},
         "do not fit the config"),
        ({"extra": [1, 2]}, "'extra' is not a dict"),
    ],
)
def test_a_wrong_checkpoint_is_refused(checkpoint: Path, tmp_path: Path, change: dict[str, object],
                                       message: str) -> None:
    data = torch.load(checkpoint, weights_only=True)
    data.update(change)
    bad = tmp_path / "bad.pt"
    torch.save(data, bad)
    with pytest.raises(ValueError, match=message):
        load_checkpoint(bad)
    torch.save({"weights": 1}, bad)
    with pytest.raises(ValueError, match="not an 'mjenv-policy' checkpoint"):
        load_checkpoint(bad)


def test_extra_must_be_plain_data(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="weights_only"):
        save_checkpoint(tmp_path / "x.pt", _net(), {"path": Path("a")})
    assert not list(tmp_path.iterdir())


def test_act_batch_equals_act_row_by_row(checkpoint: Path) -> None:
    agent = PolicyAgent(str(checkpoint))
    obs, masks = _batch(np.random.default_rng(5), 32)
    batched = agent.act_batch(obs, masks)
    assert batched == [agent.act(o, m) for o, m in zip(obs, masks, strict=True)]
    assert list(act_batch(agent, obs, masks)) == batched
    assert all(masks[i, a] for i, a in enumerate(batched))


def test_same_seed_same_samples(checkpoint: Path) -> None:
    obs, masks = _batch(np.random.default_rng(6), 16, density=0.5)

    def samples(agent_seed: int | None, reset_seed: int) -> list[int]:
        agent = PolicyAgent(str(checkpoint), greedy=False, seed=agent_seed)
        agent.reset(0, seed=reset_seed)
        out = agent.act_batch(obs, masks) + agent.act_batch(obs, masks)
        assert all(masks[i % 16, a] for i, a in enumerate(out))
        return out

    assert samples(1, 2) == samples(1, 2)
    assert samples(None, 2) == samples(None, 2)
    assert samples(1, 2) != samples(1, 3)  # 32 draws over ~117 legal actions each
    assert samples(1, 2) != samples(4, 2)


def test_spec_builds_an_agent_that_plays_legal_hands(checkpoint: Path) -> None:
    agent = make_agent(f"policy:{checkpoint}")
    sampler = make_agent(f"policy:{checkpoint} greedy=False seed=3")
    assert isinstance(agent, PolicyAgent) and agent.greedy
    assert isinstance(sampler, PolicyAgent) and not sampler.greedy
    decisions = 0
    for seed in range(3):
        env = mjenv.raw_env()
        env.reset(seed=seed)
        players = {name: agent if i % 2 == 0 else sampler
                   for i, name in enumerate(env.possible_agents)}
        for i, name in enumerate(env.possible_agents):
            players[name].reset(i, seed=seed)
        for name in env.agent_iter():
            o, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = players[name].act(o["observation"], o["action_mask"])
            assert o["action_mask"][a]
            env.step(a)  # raw_env raises on an illegal action
            decisions += 1
        assert env.game.result is not None and env.game.result.penalized is None
    assert decisions > 50


def test_a_missing_checkpoint_is_a_clear_spec_error(tmp_path: Path) -> None:
    from mjenv.agent import make_agent

    with pytest.raises(ValueError, match="agent spec 'policy:.*nope.pt'.*No such file"):
        make_agent(f"policy:{tmp_path / 'nope.pt'}")


def _corrupt_files(checkpoint: Path, tmp_path: Path) -> dict[str, Path]:
    """Files that are not checkpoints in the ways a user meets them."""
    import pickle
    import zipfile

    files = {"junk": b"\x00\x01 this is not a checkpoint " * 40,
             "empty": b"",
             "truncated": checkpoint.read_bytes()[:300],
             **{f"cut-{k}": checkpoint.read_bytes()[:len(checkpoint.read_bytes()) * k // 16]
                for k in range(1, 16)},  # a download cut short (an OSError inside torch)
             "pickle": pickle.dumps({"format": "mjenv-policy"}),
             "malicious": pickle.dumps(print)}  # weights_only refuses globals
    paths = {}
    for name, data in files.items():
        paths[name] = tmp_path / f"{name}.pt"
        paths[name].write_bytes(data)
    paths["zip"] = tmp_path / "zip.pt"
    with zipfile.ZipFile(paths["zip"], "w") as archive:
        archive.writestr("archive/data.pkl", b"garbage")
    return paths


def test_unreadable_checkpoints_are_one_line_errors(checkpoint: Path, tmp_path: Path) -> None:
    """Corrupt, truncated, foreign or malicious files: a ValueError of one line naming the file
    (issue 14: UnpicklingError, KeyError, a zip RuntimeError were tracebacks), also as a spec."""
    for name, path in _corrupt_files(checkpoint, tmp_path).items():
        with pytest.raises(ValueError) as caught:
            load_checkpoint(path)
        message = str(caught.value)
        assert "\n" not in message and str(path) in message, (name, message)
        with pytest.raises(ValueError, match=r"^agent spec 'policy:") as caught:
            make_agent(f"policy:{path}")
        assert "\n" not in str(caught.value), name


def test_a_size_mismatch_is_one_line(checkpoint: Path, tmp_path: Path) -> None:
    data = torch.load(checkpoint, weights_only=True)
    data["config"] = {**data["config"], "channels": 8}
    bad = tmp_path / "bad.pt"
    torch.save(data, bad)
    with pytest.raises(ValueError, match="do not fit the config: size mismatch") as caught:
        load_checkpoint(bad)
    assert "\n" not in str(caught.value) and "more)" in str(caught.value)


def test_explain_gives_the_probabilities_the_agent_plays_by(checkpoint: Path) -> None:
    agent = PolicyAgent(str(checkpoint))
    obs, masks = _batch(np.random.default_rng(3), 4)
    for o, m in zip(obs, masks, strict=True):
        probs, value = agent.explain(o, m)
        assert probs.shape == (235,) and abs(float(probs.sum()) - 1) < 1e-5
        assert np.all(probs[m == 0] == 0) and isinstance(value, float)
        assert int(np.argmax(probs)) == agent.act(o, m)  # greedy plays the most probable
