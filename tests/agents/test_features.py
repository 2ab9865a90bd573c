"""Hand-analysis feature planes (mjenv_agents.features) and their use by the policy network."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from mjenv.actions import DISCARD_BASE, PUNG_BASE  # noqa: E402
from mjenv_agents.features import FEATURE_PLANES, augment, feature_planes  # noqa: E402
from mjenv_agents.policy import PolicyConfig, PolicyNet  # noqa: E402
from mjenv_agents.train.dataset import generate  # noqa: E402


@pytest.fixture(scope="module")
def greedy_data():  # type: ignore[no-untyped-def]
    return generate(hands=4, seed=11, teacher="greedy")


def test_shapes_and_none(greedy_data) -> None:  # type: ignore[no-untyped-def]
    d = greedy_data
    assert augment("none", d.obs, d.mask) is d.obs
    x = augment("shanten-v1", d.obs, d.mask)
    assert x.shape == (len(d), 86 + FEATURE_PLANES["shanten-v1"], 34)
    assert np.array_equal(x[:, :86], d.obs)
    assert ((x >= 0) & (x <= 1)).all()
    with pytest.raises(ValueError, match="unknown feature set"):
        feature_planes("shanten-v9")
    with pytest.raises(ValueError, match="obs must be"):
        augment("shanten-v1", d.obs[:, :80], d.mask)


def test_planes_agree_with_the_greedy_agent(greedy_data) -> None:  # type: ignore[no-untyped-def]
    """GreedyShantenAgent discards to keep the best shanten and claims only to lower it: its
    choices must sit in the planes that say so."""
    d = greedy_data
    f = augment("shanten-v1", d.obs, d.mask)[:, 86:]
    rows = np.arange(len(d))
    discard = (d.action >= DISCARD_BASE) & (d.action < DISCARD_BASE + 34)
    assert discard.sum() > 50
    tiles = d.action[discard] - DISCARD_BASE
    assert f[rows[discard], 0, tiles].all()          # the discard keeps the best shanten
    assert not f[rows[discard], 1:3, tiles].any()
    level = f[:, 4:9, :].sum(axis=1)
    assert (level == 1).all()                        # exactly one shanten level, everywhere
    pung = (d.action >= PUNG_BASE) & (d.action < PUNG_BASE + 34)
    if pung.any():
        assert f[rows[pung], 10, d.action[pung] - PUNG_BASE].all()


def test_policy_net_with_features() -> None:
    config = PolicyConfig(channels=8, blocks=1, features="shanten-v1")
    assert config.input_planes == 86 + 15
    with pytest.raises(ValueError):
        PolicyConfig(features="bogus")
    net = PolicyNet(config)
    d = generate(hands=1, seed=2)
    x = net.prepare(d.obs, d.mask)
    logits, value = net(torch.from_numpy(x), torch.from_numpy(d.mask))
    assert logits.shape == (len(d), 235) and value.shape == (len(d),)
    with pytest.raises(ValueError, match="obs must have shape"):
        net(torch.from_numpy(d.obs), torch.from_numpy(d.mask))  # features not added


def test_prepare_reads_the_env_planes_as_they_are() -> None:
    """An observation of the env's ``mjenv-v1+shanten`` encoder already holds the planes:
    ``prepare`` returns it unchanged, and it is what ``augment`` makes of ``mjenv-v1``'s."""
    import mjenv
    from mjenv_agents.features import feature_encoder

    assert feature_encoder("none") == "mjenv-v1"
    assert feature_encoder("shanten-v1") == "mjenv-v1+shanten"
    with pytest.raises(ValueError, match="unknown feature set"):
        feature_encoder("bogus")
    net = PolicyNet(PolicyConfig(channels=8, blocks=1, features="shanten-v1"))
    plain, full = mjenv.raw_env(), mjenv.raw_env(encoder="mjenv-v1+shanten")
    plain.reset(seed=3)
    full.reset(seed=3)
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    rng = np.random.default_rng(0)
    while not plain.game.is_over and len(rows) < 60:
        agent = plain.agent_selection
        a, b = plain.observe(agent), full.observe(agent)
        rows.append((a["observation"], b["observation"], a["action_mask"] != 0))
        action = int(rng.choice(np.flatnonzero(a["action_mask"])))
        plain.step(action)
        full.step(action)
    base = np.stack([r[0] for r in rows])
    env_obs = np.stack([r[1] for r in rows])
    mask = np.stack([r[2] for r in rows])
    assert net.prepare(env_obs, mask) is env_obs
    assert np.array_equal(net.prepare(base, mask), env_obs)


def test_rule_hint_planes_name_the_rule_agents_action(greedy_data) -> None:  # type: ignore[no-untyped-def]
    """``shanten-v1+rule``: the shanten part is ``shanten-v1``'s, and the rule part marks
    exactly the action RuleBasedAgent picks on the same observation and mask."""
    from mjenv.actions import decode
    from mjenv_agents.rule_based import RuleBasedAgent

    d = greedy_data
    full = augment("shanten-v1+rule", d.obs, d.mask)
    assert full.shape == (len(d), 86 + 15 + 6, 34)
    assert np.array_equal(full[:, :101], augment("shanten-v1", d.obs, d.mask))
    hint = full[:, 101:]
    rule = RuleBasedAgent()
    kinds = set()
    for i in range(len(d)):
        action = rule.act(d.obs[i], d.mask[i])
        kind, tile = decode(action)
        kinds.add(kind)
        marked = np.argwhere(hint[i] > 0)
        if action in (0, 1):  # pass, win: a whole plane
            assert set(marked[:, 0]) == {5 if action == 0 else 4} and len(marked) == 34
        else:
            assert len(marked) == 1
            plane, where = marked[0]
            if plane == 2:  # a chow names its middle tile
                assert action >= 36 and abs(int(where) - tile) <= 1
            else:
                assert where == tile and plane == {2: 0, 4: 1}.get(kind, 3)
    assert len(kinds) >= 3  # discards, passes and some claim were seen


def test_augment_completes_a_prefix() -> None:
    """An observation of the env's ``mjenv-v1+shanten`` encoder gets only the rule part; the
    result is what ``augment`` makes of the plain ``mjenv-v1`` observation."""
    import mjenv

    plain, full = mjenv.raw_env(), mjenv.raw_env(encoder="mjenv-v1+shanten")
    plain.reset(seed=5)
    full.reset(seed=5)
    base, env_obs, masks = [], [], []
    rng = np.random.default_rng(1)
    while not plain.game.is_over and len(base) < 40:
        agent = plain.agent_selection
        a, b = plain.observe(agent), full.observe(agent)
        base.append(a["observation"])
        env_obs.append(b["observation"])
        masks.append(a["action_mask"] != 0)
        action = int(rng.choice(np.flatnonzero(a["action_mask"])))
        plain.step(action)
        full.step(action)
    mask = np.stack(masks)
    want = augment("shanten-v1+rule", np.stack(base), mask)
    assert np.array_equal(augment("shanten-v1+rule", np.stack(env_obs), mask), want)
    assert augment("shanten-v1+rule", want, mask) is want
    with pytest.raises(ValueError, match="prefix"):
        augment("shanten-v1+rule", want[:, :90], mask)


def test_label_smoothing_spreads_over_legal_actions_only() -> None:
    from mjenv_agents.train.bc import bc_loss

    torch.manual_seed(0)
    net = PolicyNet(PolicyConfig(channels=8, blocks=1))
    d = generate(hands=1, seed=4)
    obs, mask = torch.from_numpy(d.obs), torch.from_numpy(d.mask)
    action = torch.from_numpy(d.action.astype(np.int64))
    plain, right = bc_loss(net, obs, mask, action)
    smooth, right2 = bc_loss(net, obs, mask, action, 0.1)
    assert torch.isfinite(smooth) and right == right2
    logp = torch.log_softmax(net(obs, mask)[0], dim=1)
    legal = mask != 0
    spread = (-(logp * legal).sum(1) / legal.sum(1)).mean()
    assert torch.allclose(smooth, 0.9 * plain + 0.1 * spread)


@pytest.mark.parametrize("features", ["shanten-v1+rule", "shanten-v1+lookahead"])
def test_the_hint_bias_raises_exactly_the_hinted_action(greedy_data, features) -> None:  # type: ignore[no-untyped-def]
    """``hint_bias``: the cell :func:`hint_index` reads for an action holds 1 exactly when the
    hint part names that action, among the legal ones, so the bias lifts that logit alone; the
    hint is the choice of the part's own player (``rule`` or ``lookahead``)."""
    from mjenv.agent import make_agent
    from mjenv_agents.features import hint_index, hint_part

    d = greedy_data
    full = augment(features, d.obs, d.mask)
    lifted = full.reshape(len(d), -1)[:, hint_index(features)] * d.mask
    player = make_agent(str(hint_part(features)))
    for i in range(len(d)):
        player.reset(0)  # as the hint's player is before each decision
        assert np.flatnonzero(lifted[i]).tolist() == [player.act(d.obs[i], d.mask[i])]
    with pytest.raises(ValueError, match="no hint part"):
        hint_index("shanten-v1")


def test_a_checkpoint_without_hint_bias_still_loads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from mjenv_agents.policy import load_checkpoint, save_checkpoint

    old = PolicyConfig(channels=8, blocks=1, features="shanten-v1+rule")
    assert PolicyConfig.from_dict({k: v for k, v in old.__dict__.items()
                                   if k != "hint_bias"}) == old
    net = PolicyNet(PolicyConfig(channels=8, blocks=1, features="shanten-v1+rule",
                                 hint_bias=True))
    save_checkpoint(tmp_path / "h.pt", net)
    back, _ = load_checkpoint(tmp_path / "h.pt")
    assert back.config.hint_bias and float(back.hint_scale.detach()) == 5.0
    with pytest.raises(ValueError, match="hint part"):
        PolicyNet(PolicyConfig(channels=8, blocks=1, features="shanten-v1", hint_bias=True))
    assert PolicyConfig.fresh(8, 1, "shanten-v1+lookahead").hint_bias


def test_the_hint_is_a_function_of_the_decision_alone() -> None:
    """The hint's player is reset before each decision. ``rule`` remembers the value of each
    ready hand it has scored, as if nothing had been seen since, until it is reset: in these
    hands, decision 329 gets another answer from a player that scored decision 318 just before
    (the memo would leak), but its hint is the fresh player's answer."""
    from mjenv_agents.features import hint_index
    from mjenv_agents.rule_based import RuleBasedAgent

    d = generate(hands=12, seed=3)
    earlier, later = 318, 329
    fresh = RuleBasedAgent().act(d.obs[later], d.mask[later])
    carried = RuleBasedAgent()
    carried.act(d.obs[earlier], d.mask[earlier])
    assert carried.act(d.obs[later], d.mask[later]) != fresh
    both = augment("shanten-v1+rule", d.obs[[earlier, later]], d.mask[[earlier, later]])
    lifted = both[1].reshape(-1)[hint_index("shanten-v1+rule")] * d.mask[later]
    assert np.flatnonzero(lifted).tolist() == [fresh]
