"""PPO's rollout workers as Ray actors (``backend = "ray"``): the same config runs on this
machine's processes, on a local Ray, or on a Ray cluster with many rollout machines and one
learner.

Each of ``rollout_workers`` actors holds a :class:`~mjenv_agents.train.ppo.WorkerRollout`,
exactly what a worker process of the ``processes`` backend holds, with the same random stream
and share of the decisions: for the same seeds, a run on Ray gives the same batches, so the same
updates and metrics, as on processes (``time/*`` aside: those are wall-clock speeds). The
learner stays in the driver. Its weights go to the actors through Ray's object store: one
``ray.put`` per update, which every actor reads (on a cluster, each node fetches one copy,
however many actors it runs). The pool snapshots travel the same way, each put once when it
joins the pool, so the actors need no shared file system for them.

Ray's lifetime follows Ray's own conventions, as the arena's Ray backend does
(:mod:`mjenv.arena.runner`): with ``ray_address`` empty and no Ray initialized in this process,
a local Ray is started with ``rollout_workers`` CPUs and shut down when training ends, however it
ends (an exception, Ctrl-C, SIGTERM: ``ppo.train`` unwinds SIGTERM like Ctrl-C), which ends its
actors too; a Ray this process did not start (``ray_address``, or a ``ray.init`` of the caller)
is left running, with the actors killed. Actors import ``mjenv_agents`` from their node's
Python: every node runs the same installation (docs/training.md, "Training on a Ray
cluster").
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch

from ..policy import PolicyNet, load_checkpoint
from .ppo import (
    Args,
    Batch,
    Collected,
    WorkerRollout,
    cpu_state,
    join_collected,
    net_from_state,
)


def import_ray() -> Any:
    """The ``ray`` module, or a one-line ValueError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ValueError("backend = \"ray\" needs Ray: pip install 'mjenv[distributed]'"
                         ) from None
    return ray


@contextlib.contextmanager
def ray_session(args: Args) -> Iterator[Any]:
    """Ray for the run: joins ``ray_address``, or uses a Ray this process already
    initialized, or starts a local one with ``rollout_workers`` CPUs; a Ray started here is
    shut down on leaving the block, also on an exception."""
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        ray.init(address=args.ray_address or None,
                 num_cpus=None if args.ray_address else args.rollout_workers,
                 include_dashboard=False, log_to_driver=False)
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def _pool_nets(refs: Sequence[Any]) -> list[PolicyNet]:
    """The pool snapshots from the object store: (config, weights) each."""
    import ray

    return [net_from_state(config, state) for config, state in ray.get(list(refs))]


class RolloutActor:
    """One Ray actor: a :class:`~mjenv_agents.train.ppo.WorkerRollout` (worker ``index``).
    The pool arrives as object references inside a list, which Ray leaves unresolved, so an
    actor fetches the snapshots only when the pool changed."""

    def __init__(self, args: Args, config: dict[str, Any], index: int, start: int,
                 pool_keys: list[str], pool_refs: list[Any]) -> None:
        self.worker = WorkerRollout(args, config, index, start, pool_keys,
                                    lambda: _pool_nets(pool_refs))
        gc.freeze()  # what the setup made lives as long as the actor: no collection scans it

    def restart(self, start: int, pool_keys: list[str], pool_refs: list[Any]) -> None:
        self.worker.restart(start, pool_keys, lambda: _pool_nets(pool_refs))

    def collect(self, state: dict[str, torch.Tensor], pool_keys: list[str],
                pool_refs: list[Any]) -> Collected:
        return self.worker.collect(state, pool_keys, lambda: _pool_nets(pool_refs))


class RayRollouts:
    """``rollout_workers`` Ray actors playing the hands (see the module docstring); the
    interface of :class:`~mjenv_agents.train.ppo.RolloutWorkers`. Needs an initialized Ray
    (:func:`ray_session`)."""

    def __init__(self, args: Args, net: PolicyNet, pool: list[Path], start: int) -> None:
        self.ray = import_ray()
        self.net = net
        self.stepped = 0
        self.stats: list[tuple[float, int, int]] = []
        self.pool_paths: list[Path] = []
        self.refs: dict[str, Any] = {}
        """pool snapshot path -> its (config, weights) in the object store"""
        self.set_pool(pool)
        cpus = self.ray.cluster_resources().get("CPU", 0)
        if cpus < args.rollout_workers:  # an autoscaling cluster may still grow: a warning
            print(f"warning: the Ray cluster has {cpus:g} CPUs for {args.rollout_workers} "
                  "rollout actors of one CPU each: the others wait for a CPU to free up, and "
                  "each collection waits for every actor", file=sys.stderr, flush=True)
        actor = self.ray.remote(num_cpus=1)(RolloutActor)
        config = asdict(net.config)
        keys, refs = self._pool()
        self.actors = [actor.remote(args, config, w, start, keys, refs)
                       for w in range(args.rollout_workers)]

    def _pool(self) -> tuple[list[str], list[Any]]:
        keys = [str(p) for p in self.pool_paths]
        return keys, [self.refs[k] for k in keys]

    def set_pool(self, paths: list[Path]) -> None:
        """The pool from now on: a snapshot new to it is put in the object store once; one that
        left it is released."""
        self.pool_paths = list(paths)
        keys = {str(p) for p in paths}
        for path in paths:
            if str(path) not in self.refs:
                snapshot, _ = load_checkpoint(path)
                self.refs[str(path)] = self.ray.put((asdict(snapshot.config),
                                                     cpu_state(snapshot)))
        for key in [k for k in self.refs if k not in keys]:
            del self.refs[key]

    def restart(self, start: int) -> None:
        keys, refs = self._pool()
        self.ray.get([a.restart.remote(start, keys, refs) for a in self.actors])
        self.stats = []

    def collect(self) -> Batch:
        weights = self.ray.put(cpu_state(self.net))  # once per update, read by every actor
        keys, refs = self._pool()
        parts = self.ray.get([a.collect.remote(weights, keys, refs) for a in self.actors])
        batch, stepped = join_collected(parts, self.stats)
        self.stepped += stepped
        return batch

    def take_stats(self) -> dict[str, float]:
        from .ppo import _stats_metrics

        stats, self.stats = self.stats, []
        return _stats_metrics(stats)

    def close(self) -> None:
        """Kill the actors (a Ray started for the run then shuts down: :func:`ray_session`)."""
        for actor in self.actors:
            with contextlib.suppress(Exception):  # Ray already down: nothing left to kill
                self.ray.kill(actor)
        self.actors = []


__all__ = ["RayRollouts", "RolloutActor", "import_ray", "ray_session"]
