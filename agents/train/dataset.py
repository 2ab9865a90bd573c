"""Behaviour-cloning data: decisions of a teacher agent, played on the fly or kept in a file.

A :class:`Dataset` holds three aligned arrays, in play order (hand by hand, decision by
decision)::

    obs      float32 (N, 86, 34)   the deciding seat's "observation" (mjenv-v1 planes)
    mask     bool    (N, 235)      its "action_mask"
    action   int64   (N,)          the teacher's action (always legal under mask)

About 70 decisions a hand (the env asks only seats with a real choice), 12 KB each in memory.

**File format** (``save`` / ``load``): one ``numpy.savez_compressed`` archive (``.npz``) with

    obs      float32 (N, 86, 34)   as above (the 0/1 planes compress about 20 to 1)
    mask     uint8   (N, 30)       the masks, ``numpy.packbits(mask, axis=1)``
    action   int16   (N,)
    meta     str                   JSON: {"format": "mjenv-bc-dataset", "version": 1,
                                   "encoder": "mjenv-v1", "teacher", "rules", "seed", "hands"}

Read it with ``numpy.load(path)`` in any language that reads ``.npz``; :func:`load` checks the
format, the version and the shapes and refuses anything else with a ValueError.

**Generation** (:func:`generate`): ``hands`` hands of ``mjenv.raw_env(rules=rules)`` played by
four copies of the teacher; hand ``i`` is reset with the ``i``-th seed of
``numpy.random.SeedSequence(seed)`` (:func:`hand_seeds`), so the data depend only on ``seed``,
``hands``, ``rules`` and the teacher, never on ``workers`` (hands are split into contiguous
chunks and concatenated in order).
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from mjenv.actions import NUM_ACTIONS
from mjenv.encoders.default import NUM_CHANNELS
from mjenv.procs import die_with_parent
from mjenv.tiles import NUM_KINDS

DATASET_FORMAT = "mjenv-bc-dataset"
DATASET_VERSION = 1


@dataclass
class Dataset:
    """Teacher decisions (see the module docstring)."""

    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.action)


def hand_seeds(seed: int, hands: int) -> list[int]:
    """The env seed of each hand: ``numpy.random.SeedSequence(seed)``'s first ``hands`` words."""
    words = np.random.SeedSequence(seed).generate_state(hands, dtype=np.uint32)
    return [int(w) for w in words]


def _play(job: tuple[list[int], str, str]) -> Dataset:
    """Play the hands of ``seeds`` with four teachers and record every decision."""
    import mjenv
    from mjenv.agent import make_agent

    seeds, rules, teacher = job
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    players = [make_agent(teacher) for _ in range(4)]
    for hand_seed in seeds:
        env = mjenv.raw_env(rules=rules)
        env.reset(seed=hand_seed)
        for seat, player in enumerate(players):
            player.reset(seat, hand_seed)
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            mask = np.asarray(observation["action_mask"])
            action = int(players[env.possible_agents.index(agent)].act(
                observation["observation"], mask))
            obs.append(np.asarray(observation["observation"], dtype=np.float32))
            masks.append(mask != 0)
            actions.append(action)
            env.step(action)
        env.close()
    if not actions:
        return Dataset(np.zeros((0, NUM_CHANNELS, NUM_KINDS), np.float32),
                       np.zeros((0, NUM_ACTIONS), bool), np.zeros(0, np.int64))
    return Dataset(np.stack(obs), np.stack(masks), np.asarray(actions, dtype=np.int64))


def concatenate(parts: list[Dataset]) -> Dataset:
    return Dataset(np.concatenate([p.obs for p in parts]),
                   np.concatenate([p.mask for p in parts]),
                   np.concatenate([p.action for p in parts]))


def generate(hands: int, seed: int, rules: str = "mcr", teacher: str = "rule",
             workers: int = 1) -> Dataset:
    """Play ``hands`` hands with four copies of ``teacher`` (an agent spec) and record every
    decision; ``workers`` processes share the hands (same data whatever their number)."""
    seeds = hand_seeds(seed, hands)
    if workers <= 1 or hands < 2:
        parts = [_play((seeds, rules, teacher))]
    else:
        n = min(workers * 4, hands)
        bounds = np.linspace(0, hands, n + 1).astype(int)
        jobs = [(seeds[a:b], rules, teacher) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
        with _worker_pool(workers) as pool:
            parts = list(pool.map(_play, jobs))
    data = concatenate(parts)
    if len(data) == 0:
        raise RuntimeError("the teacher made no decision")
    return data


def _worker_pool(workers: int) -> ProcessPoolExecutor:
    """``workers`` processes that die with this one, however it ends (``kill -9`` included):
    a killed training run leaves no data worker behind (mjenv.procs)."""
    return ProcessPoolExecutor(workers, initializer=die_with_parent, initargs=(os.getpid(),))


def _augment(job: tuple[str, np.ndarray, np.ndarray]) -> np.ndarray:
    from ..features import augment

    return augment(*job)


def prepared(net: Any, data: Dataset, workers: int = 1, chunk: int = 4096,
             ) -> npt.NDArray[np.float32]:
    """The network input for every decision of ``data`` (``net.prepare``: the observation
    plus the network's feature planes), computed by ``workers`` processes in chunks."""
    name = net.config.features
    if name == "none":
        return data.obs
    jobs = [(name, data.obs[i:i + chunk], data.mask[i:i + chunk])
            for i in range(0, len(data), chunk)]
    if workers <= 1 or len(jobs) < 2:
        return np.concatenate([_augment(j) for j in jobs])
    with _worker_pool(workers) as pool:
        return np.concatenate(list(pool.map(_augment, jobs)))


def save(path: str | os.PathLike[str], data: Dataset, meta: dict[str, Any]) -> None:
    """Write ``data`` in the file format above (next to ``path``, then renamed over it)."""
    header = {"format": DATASET_FORMAT, "version": DATASET_VERSION, "encoder": "mjenv-v1",
              **meta}
    target = Path(path)
    tmp = target.with_name(f"{target.name}.tmp{os.getpid()}.npz")
    try:
        np.savez_compressed(tmp, obs=data.obs.astype(np.float32, copy=False),
                            mask=np.packbits(data.mask, axis=1),
                            action=data.action.astype(np.int16), meta=np.array(json.dumps(header)))
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


def load(path: str | os.PathLike[str]) -> tuple[Dataset, dict[str, Any]]:
    """(data, meta) of a file written by :func:`save`; ValueError if it is not one."""
    try:
        archive = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{os.fspath(path)}: cannot read a dataset: {exc}") from None
    with archive:
        missing = sorted({"obs", "mask", "action", "meta"} - set(archive.files))
        if missing:
            raise ValueError(f"{os.fspath(path)}: not an {DATASET_FORMAT} file (no {missing})")
        meta = json.loads(str(archive["meta"]))
        if meta.get("format") != DATASET_FORMAT or meta.get("version") != DATASET_VERSION:
            raise ValueError(f"{os.fspath(path)}: format {meta.get('format')!r} version "
                             f"{meta.get('version')!r}; this code reads {DATASET_FORMAT!r} "
                             f"version {DATASET_VERSION}")
        obs = archive["obs"].astype(np.float32, copy=False)
        packed = archive["mask"]
        action = archive["action"].astype(np.int64)
    n = len(action)
    mask = np.unpackbits(packed, axis=1, count=NUM_ACTIONS).astype(bool) if n else \
        np.zeros((0, NUM_ACTIONS), bool)
    if obs.shape != (n, NUM_CHANNELS, NUM_KINDS) or mask.shape != (n, NUM_ACTIONS):
        raise ValueError(f"{os.fspath(path)}: inconsistent shapes obs {obs.shape}, "
                         f"mask {mask.shape}, action {action.shape}")
    if n and (action.min() < 0 or action.max() >= NUM_ACTIONS
              or not mask[np.arange(n), action].all()):
        raise ValueError(f"{os.fspath(path)}: an action is outside its mask")
    return Dataset(obs, mask, action), meta
