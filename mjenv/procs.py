"""Process lifetime: worker processes that die with their parent, SIGTERM that unwinds like
Ctrl-C, and numerical libraries held to one thread.

Why this exists. A pool worker of :mod:`multiprocessing` waits on a queue whose write end it
holds itself, so it never sees its parent go: after ``kill -9`` (or ``kill -TERM``, whose
default action skips every ``finally``) of a parent, the workers are re-parented to PID 1 and
wait forever, and so does multiprocessing's resource tracker, which exits only when every
holder of its pipe (the parent and each worker) is gone. :func:`die_with_parent`, called first
thing in a worker (a pool's ``initializer``), ties the worker to its parent; with the workers
gone the resource tracker reads end-of-file and exits too. :func:`sigterm_raises` makes SIGTERM
of the parent an exception (:class:`Terminated`), so the code that owns the pool stops it in a
``finally`` as it does on Ctrl-C.

Threads: a policy's one-row forward passes gain nothing from torch's intra-op threads, and N
processes each starting one thread per core fight over the cores (2-3x slower on many cores).
:func:`one_thread_env` sets the variables that torch, OpenMP and BLAS read when they are first
imported; :func:`torch_threads` holds an already imported torch to one thread for a while. mjenv
never imports torch: it is used only when something else already has.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType

THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")
"""What torch (OpenMP, MKL) and numpy's BLAS read, once, when they are loaded."""

TERMINATED = 128 + signal.SIGTERM
"""The exit status of a process that SIGTERM ended (what a shell reports)."""
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _set_parent_death_signal(signum: int) -> bool:
    """Linux: ask the kernel to send ``signum`` to this process when its parent thread ends
    (``prctl(PR_SET_PDEATHSIG)``); False where that does not exist."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)) == 0
    except (OSError, AttributeError):  # no C library to load, or no prctl in it
        return False


def _watch_parent(parent: int, interval: float) -> None:
    """The portable fallback: a daemon thread that ends the process once its parent is no
    longer ``parent`` (an orphan is re-parented to PID 1 or to a sub-reaper)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="mjenv-die-with-parent", daemon=True).start()


def die_with_parent(parent: int | None = None, *, interval: float = 0.5) -> str:
    """End this process when its parent process ends, however the parent ends (a signal,
    SIGKILL included, or a normal exit). Call it first in a worker process; ``parent`` is the
    PID of the process that started this one (``os.getpid()`` there, passed along), which
    closes the race of a parent that died before the call (then this process exits at once).
    Without ``parent`` the current parent is taken.

    On Linux the kernel sends SIGKILL (``prctl(PR_SET_PDEATHSIG)``): immediate, nothing in the
    worker runs. The signal comes when the parent *thread* that started the worker ends, so
    start workers from a thread that lives as long as they should (the main thread; a
    ``ProcessPoolExecutor`` starts its workers in the thread that submits). Elsewhere a daemon
    thread polls ``os.getppid()`` every ``interval`` seconds and calls ``os._exit(1)``.

    The worker's own children are not covered: they need the same call (or end when their
    pipes to the worker close). Returns how the process is tied: ``"prctl"`` or ``"poll"``.

    For a pool::

        ProcessPoolExecutor(n, initializer=die_with_parent, initargs=(os.getpid(),))
    """
    if parent is None:
        parent = os.getppid()
    how = "prctl" if _set_parent_death_signal(signal.SIGKILL) else "poll"
    if how == "poll":
        _watch_parent(parent, interval)
    if os.getppid() != parent:  # the parent ended before the signal was armed
        os._exit(1)
    return how


class Terminated(SystemExit):
    """SIGTERM, raised in the main thread inside :func:`sigterm_raises`. A SystemExit with the
    status of a process killed by SIGTERM (128 + 15): ``except Exception`` lets it through,
    every ``finally`` runs, and uncaught it ends the program with that status, silently."""

    def __init__(self) -> None:
        super().__init__(TERMINATED)


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextlib.contextmanager
def sigterm_raises() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` in the main thread instead of
    ending the process on the spot, so that ``finally`` blocks stop worker pools and close
    files; the previous handler comes back after. Outside the main thread (where Python
    cannot set handlers) it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def ignore_interrupts() -> None:
    """For a worker process: Ctrl-C goes to the whole foreground process group, and only the
    parent should act on it (it stops the workers); a worker that raised KeyboardInterrupt
    itself would print a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def available_cores() -> int:
    """The CPU cores this process may run on (its affinity where the platform tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def one_thread_env() -> None:
    """Set :data:`THREAD_VARIABLES` to 1 unless already set (a user's own choice stands). They
    are read when torch, OpenMP or BLAS load, so this should run before those imports; it also
    holds for every process started afterwards (they inherit the environment). A torch this
    process has already imported is held to one thread as well, unless ``OMP_NUM_THREADS`` was
    set: a worker started by ``spawn`` imports its parent's main module first (a training
    script imports torch there), before its initializer runs, and two such workers of two
    threads each on two cores ran the arena's games 5-10x slower. For a process of its own (a
    command, a worker) — a library call would change its caller's process."""
    chosen = "OMP_NUM_THREADS" in os.environ
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    torch = sys.modules.get("torch")
    pin = getattr(torch, "set_num_threads", None)
    if pin is not None and not chosen:
        pin(1)


@contextlib.contextmanager
def torch_threads(n: int = 1) -> Iterator[None]:
    """Within the block, an already imported torch computes on ``n`` threads; its previous
    count comes back after. Without torch in ``sys.modules`` it does nothing (mjenv never
    imports torch): a torch imported later reads :func:`one_thread_env`'s variables."""
    torch = sys.modules.get("torch")
    get = getattr(torch, "get_num_threads", None)
    put = getattr(torch, "set_num_threads", None)
    if get is None or put is None:
        yield
        return
    before = int(get())
    if before == n:
        yield
        return
    put(n)
    try:
        yield
    finally:
        put(before)


__all__ = ["TERMINATED", "THREAD_VARIABLES", "Terminated", "available_cores", "die_with_parent",
           "ignore_interrupts", "one_thread_env", "sigterm_raises", "torch_threads"]
