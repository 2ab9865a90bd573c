"""Planes a policy network can add to its observation (``PolicyConfig.features``): hand analysis,
and a hand-written player's choice.

A network that sees only tiles must learn shanten (how far a hand is from ready) from data, and
2 CPU cores never give it enough. A feature set is a list of *parts*, each a block of planes
over the 34 tile kinds appended after the ``mjenv-v1`` observation's 86, in order:

``shanten`` (15 planes)
    the planes the environment's ``mjenv-v1+shanten`` encoder writes (their layout is
    documented once, in :mod:`mjenv.encoders.shanten_planes`): for every discard, the shanten it
    leaves and the unseen useful tiles after it; for every legal pung and chow, whether it
    lowers the shanten; the hand's shanten level. Computed by the same compiled code as the
    encoder (:class:`~mjenv.encoders.shanten_planes.ShantenPlanes`), so the two are identical
    by construction; tests compare both with an independent slow reference.
``rule`` (6 planes)
    what :class:`~mjenv_agents.rule_based.RuleBasedAgent` (default options) would play here, as
    a hint: 0 the tile it discards, 1 the tile it pungs, 2 the middle tile of its chow, 3 the
    tile it kongs (any kind), 4 all ones if it wins, 5 all ones if it passes. The agent is a
    pure function of the seat's observation and mask, so the hint uses no hidden information.
    Why: a network given the hint copies the rule-based player almost exactly after a short
    behaviour cloning (without it, 71 % of its discards and 39 % of its claims), so
    reinforcement learning starts from the strongest hand-written play and only has to learn
    where to depart from it.
``lookahead`` (6 planes)
    the same hint from :class:`~mjenv_agents.lookahead.LookaheadAgent` (spec ``lookahead``,
    default options): ``rule`` with one draw of search on its own turns, which beats ``rule``
    (docs/training.md). ``rule`` and ``lookahead`` are the *hint parts*; a set holds at most one.

Sets: ``none``; ``shanten-v1`` = shanten; ``shanten-v1+rule`` = shanten, rule;
``shanten-v1+lookahead`` = shanten, lookahead. Everything is computed from the seat's own
``mjenv-v1`` observation and action mask only (no hidden information). :func:`augment` does a
batch (the shanten part about 30 µs a decision compiled, the rule part about 0.3 ms, the
lookahead part a few ms on the turns it searches); where the environment already produced a
prefix of the parts (:func:`feature_encoder`: PPO's rollouts read ``mjenv-v1+shanten``), only
the rest is computed, and :meth:`PolicyNet.prepare <mjenv_agents.policy.PolicyNet.prepare>`
passes a complete observation through unchanged.
"""

from __future__ import annotations

import importlib
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from mjenv.actions import K_CHOW, K_DISCARD, K_PASS, K_PUNG, K_WIN, decode, decode_chow
from mjenv.encoders.default import HAND, NUM_CHANNELS, S_MELD_COUNT, SCALARS, UNSEEN
from mjenv.encoders.shanten_planes import ShantenPlanes
from mjenv.tiles import NUM_KINDS

PART_PLANES = {"shanten": 15, "rule": 6, "lookahead": 6}
"""Parts of a feature set -> the planes each adds."""

HINT_PARTS = {"rule": "rule_based:RuleBasedAgent", "lookahead": "lookahead:LookaheadAgent"}
"""The hint parts -> the player (``module:class`` of this package, default options) whose
choice the part marks. Named here rather than by agent spec: a Botzone zip carries no entry
points to look a spec up in."""

FEATURE_PARTS: dict[str, tuple[str, ...]] = {
    "none": (),
    "shanten-v1": ("shanten",),
    "shanten-v1+rule": ("shanten", "rule"),
    "shanten-v1+lookahead": ("shanten", "lookahead"),
}
"""Feature sets by name -> their parts, in the order their planes follow the observation."""

FEATURE_PLANES = {name: sum(PART_PLANES[p] for p in parts) for name, parts in FEATURE_PARTS.items()}
"""Feature sets by name -> the number of planes they add."""

FEATURE_ENCODERS = {"none": "mjenv-v1", "shanten-v1": "mjenv-v1+shanten",
                    "shanten-v1+rule": "mjenv-v1+shanten",
                    "shanten-v1+lookahead": "mjenv-v1+shanten"}
"""Feature sets by name -> the env encoder (mjenv.encoders) whose observation holds the
``mjenv-v1`` planes and the longest prefix of the set's parts the env can compute."""

_PLANES = ShantenPlanes()
"""One analyser for the process: its memo only saves work (results never depend on it)."""

_HINT_PLAYERS: dict[str, Any] = {}
"""The player of each hint part, made on first use (it imports the agent)."""


def feature_planes(name: str) -> int:
    """The number of planes feature set ``name`` adds; ValueError for an unknown one."""
    if name not in FEATURE_PLANES:
        raise ValueError(f"unknown feature set {name!r}; known: {sorted(FEATURE_PLANES)}")
    return FEATURE_PLANES[name]


def hint_part(name: str) -> str | None:
    """Feature set ``name``'s hint part (:data:`HINT_PARTS`), or None; ValueError for an
    unknown feature set."""
    feature_planes(name)
    found = [p for p in FEATURE_PARTS[name] if p in HINT_PARTS]
    return found[0] if found else None


def feature_encoder(name: str) -> str:
    """The env encoder whose observation holds ``mjenv-v1`` and the longest prefix of feature
    set ``name``'s parts (:data:`FEATURE_ENCODERS`); ValueError for an unknown feature set."""
    feature_planes(name)
    return FEATURE_ENCODERS[name]


def augment(name: str, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
            ) -> npt.NDArray[np.float32]:
    """``obs`` (B, 86 + p, 34) with feature set ``name``'s planes completed: (B, 86 + k, 34).
    ``obs`` holds the ``mjenv-v1`` planes and a prefix of the set's parts (p planes: none, or
    what :func:`feature_encoder`'s encoder wrote); the missing parts are computed. ``mask``
    (B, 235) is each row's legal-action mask."""
    k = feature_planes(name)
    parts = FEATURE_PARTS[name]
    ends = [NUM_CHANNELS]
    for part in parts:
        ends.append(ends[-1] + PART_PLANES[part])
    if obs.ndim != 3 or obs.shape[2] != NUM_KINDS or obs.shape[1] not in ends:
        raise ValueError(f"obs must be (B, {NUM_CHANNELS}, {NUM_KINDS}) or hold a prefix of "
                         f"{name!r}'s planes ({', '.join(map(str, ends[1:]))} planes), "
                         f"got {obs.shape}")
    have = ends.index(obs.shape[1])
    if have == len(parts):
        return obs
    out = np.zeros((obs.shape[0], NUM_CHANNELS + k, NUM_KINDS), dtype=np.float32)
    out[:, :obs.shape[1]] = obs
    for part, start, end in zip(parts[have:], ends[have:-1], ends[have + 1:], strict=True):
        fill = shanten_planes if part == "shanten" else partial(hint_planes, part)
        for i in range(obs.shape[0]):
            fill(obs[i, :NUM_CHANNELS], mask[i], out[i, start:end])
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


def hint_planes(part: str, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
                planes: npt.NDArray[np.float32]) -> None:
    """Fill ``planes`` (6, 34), zeroed, with the choice of hint part ``part``'s player for one
    decision (see the module docstring); nothing when the mask offers no action. The player
    is reset first: its memo of ready hands keeps a value across the decisions of a hand as if
    nothing had been seen since, so without the reset the hint would depend on which decisions
    the process met before (8 of 10,422 `rule` hints and 50 `lookahead` ones differed), and a
    policy's play on how an evaluation was split among processes."""
    if not np.any(mask):
        return
    player = _HINT_PLAYERS.get(part)
    if player is None:
        module, cls = HINT_PARTS[part].split(":")
        player = getattr(importlib.import_module(f".{module}", __package__), cls)()
        _HINT_PLAYERS[part] = player
    player.reset(0)
    planes[_hint_plane(int(player.act(obs, np.asarray(mask))))] = 1.0


_HINT_PLANE_OF_KIND = {K_DISCARD: 0, K_PUNG: 1, K_CHOW: 2}
"""Action kind -> its plane in a hint part; every kind of kong: 3."""


def _hint_plane(action: int) -> tuple[int, int | slice]:
    """(plane, tile or every tile) of ``action`` in a hint part."""
    kind, tile = decode(action)
    if kind == K_WIN:
        return 4, slice(None)
    if kind == K_PASS:
        return 5, slice(None)
    if kind == K_CHOW:
        return 2, decode_chow(action)[0]  # its middle tile: the claimed one is the discard
    return _HINT_PLANE_OF_KIND.get(kind, 3), tile


def hint_index(name: str) -> npt.NDArray[np.int64]:
    """For each of the 235 actions, the cell of a flattened (planes, 34) input of feature set
    ``name`` that holds 1 when its hint part names that action (a chow by its middle tile:
    of the chows sharing it only the one with the discard is legal; a kong by its tile: only
    one kind is legal at a time)."""
    from mjenv.actions import NUM_ACTIONS

    parts = FEATURE_PARTS[name]
    hint = hint_part(name)
    if hint is None:
        raise ValueError(f"feature set {name!r} has no hint part ({', '.join(HINT_PARTS)})")
    start = NUM_CHANNELS + sum(PART_PLANES[p] for p in parts[:parts.index(hint)])
    index = np.zeros(NUM_ACTIONS, dtype=np.int64)
    for action in range(NUM_ACTIONS):
        plane, tile = _hint_plane(action)
        index[action] = (start + plane) * NUM_KINDS + (0 if isinstance(tile, slice) else tile)
    return index
