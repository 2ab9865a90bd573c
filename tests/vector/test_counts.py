"""``observation_dtype="uint8"``: the batch returns each encoder's integer counts, and
``decode_observation`` turns them into the float32 observations the default batch returns,
bit for bit, with the same games, masks, rewards and infos, in this process or in workers."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from mjenv.vector import LearnerVectorEnv, VectorMahjongEnv
from tests.vector.helpers import choose


def _play(env: VectorMahjongEnv, steps: int) -> list[tuple[np.ndarray, ...]]:
    """Every batch of a run (copies): seat, observation, mask, reward, terminated, infos."""
    out = []
    batch = env.reset(seed=11)
    for step in range(steps + 1):
        out.append((batch.seat.copy(), batch.observation.copy(), batch.action_mask.copy(),
                    batch.reward.copy(), batch.terminated.copy(), batch.infos))
        if step < steps:
            batch = env.step(choose(batch.action_mask, step))
    return out


@pytest.mark.parametrize(("encoder", "workers"), [("mjenv-v1", 0), ("mjenv-v1+shanten", 0),
                                                   ("mjenv-v1", 2)])
def test_counts_decode_to_the_float_observations(encoder: str, workers: int) -> None:
    n, steps = 6, 140  # past the first hands' ends: auto-resets included
    with VectorMahjongEnv(n, encoder=encoder, num_workers=workers) as floats, \
            VectorMahjongEnv(n, encoder=encoder, num_workers=workers,
                             observation_dtype="uint8") as counts:
        want, got = _play(floats, steps), _play(counts, steps)
        ended = 0
        for w, g in zip(want, got, strict=True):
            assert g[1].dtype == np.uint8 and g[1].shape == w[1].shape
            decoded = counts.decode_observation(g[1])
            assert decoded.dtype == np.float32
            assert decoded.tobytes() == w[1].tobytes()  # bit for bit
            for k in (0, 2, 3, 4):  # seat, mask, reward, terminated
                assert np.array_equal(w[k], g[k]), k
            assert w[5] == g[5]
            ended += len(g[5])
        assert ended > 0
        # the counts times the scale (the divisor's channels divided), as the docs write it
        scale, divisor = counts.observation_scale, counts.observation_divisor
        assert scale is not None
        x = got[-1][1].astype(np.float32)
        s = len(scale)
        x[:, :s] *= scale
        if divisor is not None:
            x[:, s:] /= divisor
        assert x.tobytes() == want[-1][1].tobytes()


def test_the_spaces_say_uint8() -> None:
    with VectorMahjongEnv(2, observation_dtype="uint8") as env:
        box = env.single_observation_space["observation"]
        assert isinstance(box, spaces.Box) and box.dtype == np.uint8
        assert box.shape == env.observation_shape == (86, 34)
        batch = env.reset(seed=3)
        assert all(box.contains(row) for row in batch.observation)
        assert env.bytes_per_game < VectorMahjongEnv(2).bytes_per_game


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"observation_dtype": "float64"}, r"observation_dtype must be one of \['float32', "),
    ({"observation_dtype": "uint8", "encoder": "ijcai-v1"},
     r"needs an encoder whose cells are counts; ijcai-v1 has none"),
])
def test_bad_observation_dtypes_are_refused_in_one_line(kwargs: dict[str, str],
                                                         match: str) -> None:
    with pytest.raises(ValueError, match=match) as err:
        VectorMahjongEnv(2, **kwargs)
    assert "\n" not in str(err.value)


def test_decode_refuses_what_is_not_counts() -> None:
    with VectorMahjongEnv(2, observation_dtype="uint8") as env:
        batch = env.reset(seed=1)
        with pytest.raises(ValueError, match="counts must be uint8 of shape"):
            env.decode_observation(batch.observation.astype(np.float32))
        with pytest.raises(ValueError, match="counts must be uint8 of shape"):
            env.decode_observation(batch.observation[:, :10])
    with VectorMahjongEnv(1, encoder="ijcai-v1") as env, \
            pytest.raises(ValueError, match="has no counts to decode"):
        env.decode_observation(np.zeros((1, *env.observation_shape), np.uint8))


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_the_learner_batch_gives_counts_too(mode: str) -> None:
    """``LearnerVectorEnv`` with counts: its observations (and the ``final_obs`` of same-step
    resets) decode, by its own ``decode_observation``, to the float32 batch's, with the same
    rewards and ends."""
    n, steps = 4, 60
    kwargs = {"opponents": "random", "autoreset_mode": mode, "encoder": "mjenv-v1+shanten"}
    with LearnerVectorEnv(n, **kwargs) as floats, \
            LearnerVectorEnv(n, observation_dtype="uint8", **kwargs) as counts:
        assert counts.single_observation_space["observation"].dtype == np.uint8
        (fo, _), (co, _) = floats.reset(seed=5), counts.reset(seed=5)
        finals = 0
        for step in range(steps):
            assert co["observation"].dtype == np.uint8
            assert counts.decode_observation(co["observation"]).tobytes() == \
                fo["observation"].tobytes()
            assert np.array_equal(fo["action_mask"], co["action_mask"])
            actions = choose(fo["action_mask"], step)
            fo, fr, ft, _, fi = floats.step(actions)
            co, cr, ct, _, ci = counts.step(actions)
            assert np.array_equal(fr, cr) and np.array_equal(ft, ct)
            for k in np.flatnonzero(fi.get("_final_obs", np.zeros(n, bool))):
                want, got = fi["final_obs"][k], ci["final_obs"][k]
                assert counts.decode_observation(got["observation"][None]).tobytes() == \
                    want["observation"].tobytes()
                finals += 1
        assert finals > 0 or mode == "next_step"
