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
chunks and concatenated in order). A progress bar on stderr counts the hands played (tqdm, on a
terminal: generating the data of the demo takes minutes, the longest silent step otherwise).
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from mjenv.actions import NUM_ACTIONS
from mjenv.encoders.default import NUM_CHANNELS
from mjenv.inputs import parse_json
from mjenv.procs import die_with_parent, ignore_interrupts
from mjenv.tiles import NUM_KINDS

DATASET_FORMAT = "mjenv-bc-dataset"
DATASET_VERSION = 1
JobT = TypeVar("JobT")
ResultT = TypeVar("ResultT")


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


def _play(job: tuple[list[int], str, str], tick: Callable[[], None] | None = None) -> Dataset:
    """Play the hands of ``seeds`` with four teachers and record every decision; ``tick`` is
    called after each hand (the progress bar, when played in this process)."""
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
        if tick is not None:
            tick()
    if not actions:
        return Dataset(np.zeros((0, NUM_CHANNELS, NUM_KINDS), np.float32),
                       np.zeros((0, NUM_ACTIONS), bool), np.zeros(0, np.int64))
    return Dataset(np.stack(obs), np.stack(masks), np.asarray(actions, dtype=np.int64))


def concatenate(parts: list[Dataset]) -> Dataset:
    return Dataset(np.concatenate([p.obs for p in parts]),
                   np.concatenate([p.mask for p in parts]),
                   np.concatenate([p.action for p in parts]))


def generate(hands: int, seed: int, rules: str = "mcr", teacher: str = "rule",
             workers: int = 1, progress: bool | None = None) -> Dataset:
    """Play ``hands`` hands with four copies of ``teacher`` (an agent spec) and record every
    decision; ``workers`` processes share the hands (same data whatever their number).
    ``progress``: a bar on stderr counting hands; None shows it on a terminal only."""
    seeds = hand_seeds(seed, hands)
    with _hands_bar(hands, progress) as tick:
        if workers <= 1 or hands < 2:
            parts = [_play((seeds, rules, teacher), lambda: tick(1))]
        else:
            n = min(workers * 4, hands)
            bounds = np.linspace(0, hands, n + 1).astype(int)
            jobs = [(seeds[a:b], rules, teacher)
                    for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
            parts = _in_workers(workers, _play, jobs, lambda i: tick(len(jobs[i][0])))
    data = concatenate(parts)
    if len(data) == 0:
        raise RuntimeError("the teacher made no decision")
    return data


@contextmanager
def _hands_bar(hands: int, show: bool | None) -> Iterator[Callable[[int], None]]:
    """A tqdm bar of ``hands`` on stderr, given as a function that advances it; a function that
    does nothing without tqdm, when ``show`` is False, or (``show`` None) off a terminal."""
    bar: Any = None
    if show is None:  # decided here, not by tqdm: a disabled tqdm still starts its thread
        show = sys.stderr.isatty()
    if show:
        try:
            from tqdm import tqdm
        except ImportError:
            pass
        else:
            bar = tqdm(total=hands, unit="hand", desc="BC data", file=sys.stderr,
                       dynamic_ncols=True)
    if bar is None:
        yield lambda n: None
        return
    try:
        yield bar.update
    finally:
        bar.close()


def _start_worker(parent: int) -> None:
    """Worker initializer: die with ``parent``, however it ends (``kill -9`` included: a killed
    training run leaves no data worker behind), and leave Ctrl-C, which the terminal sends to
    every process of the group, to the parent (a worker would print a traceback of its own)."""
    die_with_parent(parent)
    ignore_interrupts()
    # A forked worker inherits the parent's handlers: under mjenv.procs.sigterm_raises its
    # SIGTERM would raise inside the job, which the pool catches and reports, and the worker
    # would live on; terminate() must end it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _in_workers(workers: int, fn: Callable[[JobT], ResultT], jobs: list[JobT],
                done: Callable[[int], None] | None = None) -> list[ResultT]:
    """``[fn(job) for job in jobs]`` computed by ``workers`` processes (see
    :func:`_start_worker`); ``done(i)`` is called as job ``i`` finishes, in any order. When
    anything stops it (Ctrl-C, SIGTERM, a failed job) the workers are ended at once, not
    waited for: the stage is redone on the re-run."""
    pool = ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(os.getpid(),))
    finished = False
    try:
        futures = {pool.submit(fn, job): i for i, job in enumerate(jobs)}
        results: dict[int, ResultT] = {}
        for future in as_completed(futures):
            results[futures[future]] = future.result()  # a failed job raises now
            if done is not None:
                done(futures[future])
        finished = True
        return [results[i] for i in range(len(jobs))]
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop_workers(pool)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers now (``shutdown`` alone waits for every running job); the same
    as the arena's (mjenv.arena.runner)."""
    stop = getattr(pool, "terminate_workers", None)  # Python 3.14
    if stop is not None:
        stop()
    else:  # the pool's own table of its processes (what terminate_workers reads)
        processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


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
    return np.concatenate(_in_workers(workers, _augment, jobs))


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
        try:
            meta = parse_json(str(archive["meta"]))
        except ValueError as exc:
            raise ValueError(f"{os.fspath(path)}: the meta entry is not JSON: {exc}") from None
        if not isinstance(meta, dict):
            raise ValueError(f"{os.fspath(path)}: the meta entry is not a JSON object")
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
