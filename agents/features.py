"""Hand-analysis planes a policy network can add to its observation (``PolicyConfig.features``).

A network that sees only tiles must learn shanten (how far a hand is from ready) from data, and
2 CPU cores never give it enough. ``shanten-v1`` adds the 15 planes over the 34 tile kinds that
the environment's ``mjenv-v1+shanten`` encoder writes (their layout is documented once, in
:mod:`mjenv.encoders.shanten_planes`): for every discard, the shanten it leaves and the unseen
useful tiles after it; for every legal pung and chow, whether it lowers the shanten; the hand's
shanten level. They are computed from the seat's own ``mjenv-v1`` observation and action mask
only (no hidden information), by the same compiled code as the encoder
(:class:`~mjenv.encoders.shanten_planes.ShantenPlanes`), so the two are identical by
construction; tests compare both with an independent slow reference.

:func:`augment` does a batch (about 30 µs a decision compiled). Where the environment can
produce the planes itself, ask it (:func:`feature_encoder`): PPO's rollouts do, and
:meth:`PolicyNet.prepare <mjenv_agents.policy.PolicyNet.prepare>` passes such observations
through unchanged.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mjenv.encoders.default import HAND, NUM_CHANNELS, S_MELD_COUNT, SCALARS, UNSEEN
from mjenv.encoders.shanten_planes import ShantenPlanes
from mjenv.tiles import NUM_KINDS

FEATURE_PLANES = {"none": 0, "shanten-v1": 15}
"""Feature sets by name -> the number of planes they add."""

FEATURE_ENCODERS = {"none": "mjenv-v1", "shanten-v1": "mjenv-v1+shanten"}
"""Feature sets by name -> the env encoder (mjenv.encoders) whose observation already holds
them after the ``mjenv-v1`` planes."""

_PLANES = ShantenPlanes()
"""One analyser for the process: its memo only saves work (results never depend on it)."""


def feature_planes(name: str) -> int:
    """The number of planes feature set ``name`` adds; ValueError for an unknown one."""
    if name not in FEATURE_PLANES:
        raise ValueError(f"unknown feature set {name!r}; known: {sorted(FEATURE_PLANES)}")
    return FEATURE_PLANES[name]


def feature_encoder(name: str) -> str:
    """The env encoder whose observation is ``augment(name, ...)`` of ``mjenv-v1``'s
    (:data:`FEATURE_ENCODERS`); ValueError for an unknown feature set."""
    feature_planes(name)
    return FEATURE_ENCODERS[name]


def augment(name: str, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
            ) -> npt.NDArray[np.float32]:
    """``obs`` (B, 86, 34) with feature set ``name``'s planes appended: (B, 86 + k, 34).
    ``mask`` (B, 235) is each row's legal-action mask."""
    k = feature_planes(name)
    if k == 0:
        return obs
    if obs.ndim != 3 or obs.shape[1:] != (NUM_CHANNELS, NUM_KINDS):
        raise ValueError(f"obs must be (B, {NUM_CHANNELS}, {NUM_KINDS}), got {obs.shape}")
    out = np.zeros((obs.shape[0], NUM_CHANNELS + k, NUM_KINDS), dtype=np.float32)
    out[:, :NUM_CHANNELS] = obs
    for i in range(obs.shape[0]):
        shanten_planes(obs[i], mask[i], out[i, NUM_CHANNELS:])
    return out


def shanten_planes(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
                   planes: npt.NDArray[np.float32]) -> None:
    """Fill ``planes`` (15, 34), zeroed and contiguous, for one decision from its ``mjenv-v1``
    observation: the standing tiles, the meld count and the unseen counts it shows."""
    hand = np.rint(obs[HAND:HAND + 4].sum(axis=0)).astype(int).tolist()
    unseen = np.rint(obs[UNSEEN] * 4).astype(int).tolist()
    n_melds = int(round(float(obs[SCALARS, S_MELD_COUNT]) * 4))
    if not planes.flags.c_contiguous:
        raise ValueError("shanten_planes writes into a contiguous (15, 34) array")
    _PLANES.fill(planes.reshape(-1), hand, n_melds, unseen, np.asarray(mask))
