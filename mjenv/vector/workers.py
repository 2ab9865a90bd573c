"""Running a batch's shards: in this process, or in worker processes over shared arrays.

Why workers: one Python process steps one game at a time; ``num_workers=k`` splits the N games
into k shards of consecutive slots (sizes differing by at most one), each stepped by a process
of its own on its rows of the shared arrays (:mod:`mjenv.vector.buffers`). A step is one short
message to each worker ("step"), the workers write their rows in parallel, and each answers
with the infos of the hands that ended in its shard. Since every slot plays the same episodes
from the same seeds wherever it runs (:mod:`mjenv.vector.seeds`), the results are identical to
``num_workers=0``.

Lifetime: every worker calls :func:`mjenv.procs.die_with_parent` first, so it dies with the
process that made the batch, however that one ends (``kill -9`` included), and ignores Ctrl-C
(the parent handles it and closes the batch). :meth:`WorkerPool.close` (also run when the batch
is garbage collected or the interpreter exits) asks the workers to stop and reaps them.
Workers start with ``multiprocessing``'s ``spawn`` method by default: nothing of the parent's
state (threads, a loaded torch) is inherited, as for the arena's workers.

Pinning (``pin_workers``, Linux): a pinned worker ``j`` runs only on the ``j``-th CPU this
process may use (:func:`worker_cpus`). Why: with k workers on k cores and the parent a process
more, the scheduler woke the second of two workers behind the first, on the same CPU, 0.6-0.9 ms
after its step was asked for, and moved workers between cores and their caches; pinned, each
starts at once and keeps its own core's cache (N = 1,024 on 2 cores: 7.4-7.8 ms a step instead
of 8.9-9.0; docs/vector.md). The default, ``"auto"``, pins exactly when the workers spread
evenly over the CPUs (their number a multiple of the CPUs': :func:`auto_cpus`), as many as the
cores being the usual choice: each CPU then holds the same number of the batch's workers, so a
second such batch on the machine shares every core evenly too. With fewer workers than CPUs,
pinning would put every batch's first worker on the same first CPU, so ``"auto"`` leaves them
to the scheduler; ``True`` pins regardless (round robin), ``False`` never.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import traceback
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, NoReturn

from mjenv.procs import die_with_parent, ignore_interrupts, one_thread_env
from mjenv.vector.buffers import Arrays, ArraySpec, allocate, attach, rows
from mjenv.vector.shard import Infos, Shard

ShardFactory = Callable[..., Shard]
"""``factory(arrays, first, *args)``: a shard over ``arrays`` (its rows) whose first game is
number ``first`` of the batch. Module-level, so that a worker can import it by name."""

START_TIMEOUT = 120.0
"""Seconds a worker may take to start (import numpy and mjenv, build its games)."""


class WorkerError(RuntimeError):
    """A worker failed (its traceback is the message) or died; the batch is closed."""


def can_pin() -> bool:
    """Whether this platform can pin a process to a CPU (``os.sched_setaffinity``: Linux has
    it, macOS and Windows do not)."""
    return hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity")


def worker_cpus(k: int) -> list[int]:
    """The CPU of each of ``k`` pinned workers: the CPUs this process may run on, in order,
    worker ``j`` on the ``j``-th (round robin when there are fewer CPUs than workers).
    ValueError, one line, where the platform cannot pin (:func:`can_pin`)."""
    if not can_pin():
        raise ValueError("pin_workers=True needs os.sched_setaffinity (Linux); "
                         "this platform cannot pin a process to a CPU")
    cpus = sorted(os.sched_getaffinity(0))
    return [cpus[j % len(cpus)] for j in range(k)]


def auto_cpus(k: int) -> list[int] | None:
    """``pin_workers="auto"``: :func:`worker_cpus` where ``k`` workers spread evenly over the
    CPUs this process may use (``k`` a multiple of their number, so each CPU gets ``k / cpus``
    of them), None (the scheduler places them) otherwise or where the platform cannot pin."""
    if not can_pin() or k % len(os.sched_getaffinity(0)):
        return None
    return worker_cpus(k)


def check_pin_workers(pin_workers: object) -> bool | str:
    """``pin_workers`` as given, or ValueError (one line) for anything but True, False and
    ``"auto"`` (an integer 1 is not True here: a flag given as a count is a mistake)."""
    if isinstance(pin_workers, bool) or (isinstance(pin_workers, str) and pin_workers == "auto"):
        return pin_workers
    raise ValueError(f"pin_workers must be True, False or 'auto', got {pin_workers!r}")


def pinned_cpus(pin_workers: bool | str, k: int) -> list[int] | None:
    """The CPU of each of ``k`` workers under ``pin_workers`` (checked), or None to leave them
    to the scheduler."""
    if pin_workers == "auto":
        return auto_cpus(k)
    return worker_cpus(k) if pin_workers else None


def split(n: int, k: int) -> list[tuple[int, int]]:
    """``n`` games in ``k`` consecutive shards ``(lo, hi)``, sizes differing by at most one
    (no empty shard: at most ``n`` of them)."""
    k = max(1, min(k, n))
    bounds = [n * j // k for j in range(k + 1)]
    return [(bounds[j], bounds[j + 1]) for j in range(k)]


class LocalRunner:
    """The shard in this process (``num_workers=0``)."""

    def __init__(self, shard: Shard) -> None:
        self.shard = shard
        self.pids: list[int] = []
        self.cpus: list[int | None] = []

    def reset(self, seed: int) -> Infos:
        return self.shard.reset(seed)

    def step(self) -> Infos:
        return self.shard.step(None)

    def close(self) -> None:
        pass


def _serve(parent: int, conn: Connection, factory: ShardFactory, args: tuple[Any, ...],
           specs: list[ArraySpec], raws: list[Any], n: int, lo: int, hi: int,
           cpu: int | None = None) -> None:
    """A worker's life: tie to the parent, keep to ``cpu`` (when pinned), build the shard,
    answer commands until told to stop or the parent's end of the pipe closes."""
    die_with_parent(parent)
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    ignore_interrupts()
    one_thread_env()  # opponents' torch, if any, on one thread per worker
    try:
        shard = factory(rows(attach(specs, raws, n), lo, hi), lo, *args)
    except BaseException:
        conn.send(("error", traceback.format_exc()))
        return
    conn.send(("ok", None))
    while True:
        try:
            command, arg = conn.recv()
        except (EOFError, OSError):
            return
        if command == "close":
            return
        try:
            out = shard.reset(arg) if command == "reset" else shard.step(None)
        except BaseException:
            conn.send(("error", traceback.format_exc()))
            return
        conn.send(("ok", out))


def _stop(processes: list[Any], conns: list[Connection]) -> None:
    """Ask the workers to stop, then reap them (terminate those that do not)."""
    for conn in conns:
        with contextlib.suppress(OSError, ValueError):  # a worker already gone
            conn.send(("close", None))
    for p in processes:
        p.join(timeout=5)
        if p.is_alive():
            p.terminate()
            p.join(timeout=5)
    for conn in conns:
        conn.close()


class WorkerPool:
    """Shards in ``k`` worker processes over shared arrays (see the module docstring)."""

    def __init__(self, k: int, factory: ShardFactory, args: tuple[Any, ...],
                 specs: list[ArraySpec], raws: list[Any], n: int,
                 context: str = "spawn", cpus: list[int] | None = None) -> None:
        """``cpus``: the CPU of each worker (:func:`worker_cpus`), or None not to pin."""
        ctx: Any = multiprocessing.get_context(context)  # typeshed's BaseContext lacks Process
        shards = split(n, k)
        pinned: list[int | None] = [None] * len(shards) if cpus is None else [*cpus]
        self.cpus = pinned
        """The CPU each worker is kept to (None: placed by the scheduler)."""
        self._processes: list[Any] = []
        self._conns: list[Connection] = []
        self._finalizer = weakref.finalize(self, _stop, self._processes, self._conns)
        parent = os.getpid()
        try:
            for (lo, hi), cpu in zip(shards, pinned, strict=True):
                mine, theirs = ctx.Pipe()
                p = ctx.Process(target=_serve, name=f"mjenv-vector-{lo}-{hi}", daemon=True,
                                args=(parent, theirs, factory, args, specs, raws, n, lo, hi,
                                      cpu))
                p.start()
                theirs.close()
                self._processes.append(p)
                self._conns.append(mine)
            for j, conn in enumerate(self._conns):
                if not conn.poll(START_TIMEOUT):
                    raise WorkerError(f"worker {j} did not start in {START_TIMEOUT:g} s")
                self._answer(j, conn)
        except BaseException:
            self.close()
            raise

    @property
    def pids(self) -> list[int]:
        """The workers' process ids."""
        return [p.pid for p in self._processes]

    def _answer(self, j: int, conn: Connection) -> Any:
        try:
            status, out = conn.recv()
        except (EOFError, OSError):
            self._died(j)
        if status != "ok":
            self.close()
            raise WorkerError(f"worker {j} failed:\n{out}")
        return out

    def _call(self, command: str, arg: Any) -> Infos:
        if not self._conns:
            raise WorkerError("the workers are closed")
        for j, conn in enumerate(self._conns):
            try:
                conn.send((command, arg))
            except OSError:  # its end of the pipe is closed: it has died already
                self._died(j)
        infos: Infos = []
        for j, conn in enumerate(self._conns):
            infos.extend(self._answer(j, conn))
        return infos

    def _died(self, j: int) -> NoReturn:
        process = self._processes[j]
        process.join(timeout=1)  # reaped, so that its exit code is known
        self.close()
        raise WorkerError(f"worker {j} died (exit code {process.exitcode})") from None

    def reset(self, seed: int) -> Infos:
        return self._call("reset", seed)

    def step(self) -> Infos:
        return self._call("step", None)

    def close(self) -> None:
        """Stop and reap the workers (idempotent)."""
        self._finalizer()
        self._processes.clear()
        self._conns.clear()


def start_games(factory: ShardFactory, args: tuple[Any, ...], specs: list[ArraySpec],
                num_envs: int, num_workers: int, context: str,
                pin_workers: bool | str = "auto",
                ) -> tuple[Arrays, LocalRunner | WorkerPool]:
    """The batch arrays of ``num_envs`` games and what plays them: ``num_workers`` worker
    processes over shared arrays (pinned to CPUs as ``pin_workers`` says: :func:`pinned_cpus`),
    or (0) the one shard ``factory(arrays, 0, *args)`` in this process (``pin_workers`` has
    nothing to pin). Both vector envs start their games so; one place keeps them alike."""
    pin_workers = check_pin_workers(pin_workers)
    shared = num_workers > 0
    # the CPUs first: a platform that cannot pin refuses before anything is allocated
    cpus = pinned_cpus(pin_workers, len(split(num_envs, num_workers))) if shared else None
    arrays, raws = allocate(specs, num_envs, shared)
    if shared:
        return arrays, WorkerPool(num_workers, factory, args, specs, raws, num_envs, context,
                                  cpus)
    return arrays, LocalRunner(factory(arrays, 0, *args))
