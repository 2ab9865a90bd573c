"""Run an arena: schedule the games, play them on worker processes (or Ray), write every game
as it finishes, resume what a previous run left, summarize, plot.

>>> from mjenv.arena import ArenaConfig, run_arena
>>> config = ArenaConfig(agents=("random seed=1", "random"), deals=20)   # doctest: +SKIP
>>> results = run_arena(config, "runs/arena-demo", workers=2)            # doctest: +SKIP

Work is cut into chunks of games (a few deals each); a worker plays a chunk and returns its
rows, and the parent appends them to the folder (mjenv.arena.store). Results do not depend on
the number of workers or on the backend: every game's seeds come from the schedule.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from mjenv.arena.config import ArenaConfig, Task
from mjenv.arena.play import play_task
from mjenv.arena.stats import summarize, table
from mjenv.arena.store import RunFolder

BACKENDS = ("process", "ray")
Rows = list[dict[str, Any]]


def play_chunk(config: ArenaConfig, tasks: Sequence[Task]) -> list[tuple[str, Rows]]:
    """Play ``tasks`` in this process; (key, rows) per game, in order."""
    return [(t.key, play_task(config, t)) for t in tasks]


def _run_inline(config: ArenaConfig, chunks: list[list[Task]]) -> Iterator[list[tuple[str, Rows]]]:
    for chunk in chunks:
        yield play_chunk(config, chunk)


def _one_thread_per_worker() -> None:
    """Worker initializer: numerical libraries (torch, OpenMP, BLAS) read these when first
    imported; one thread each keeps N workers on N cores instead of N x cores threads that
    fight over them (a policy's one-row forward passes gain nothing from more)."""
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def _run_processes(config: ArenaConfig, chunks: list[list[Task]],
                   workers: int) -> Iterator[list[tuple[str, Rows]]]:
    import multiprocessing

    context = multiprocessing.get_context("spawn")  # no state inherited: same as a fresh run
    with ProcessPoolExecutor(max_workers=workers, mp_context=context,
                             initializer=_one_thread_per_worker) as pool:
        pending: set[Future[list[tuple[str, Rows]]]] = set()
        queue = iter(chunks)
        for chunk in queue:
            pending.add(pool.submit(play_chunk, config, chunk))
            if len(pending) >= 2 * workers:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                more = next(queue, None)
                if more is not None:
                    pending.add(pool.submit(play_chunk, config, more))


def _run_ray(config: ArenaConfig, chunks: list[list[Task]], workers: int,
             address: str | None) -> Iterator[list[tuple[str, Rows]]]:
    try:
        import ray
    except ImportError:
        raise ValueError("--backend ray needs Ray: pip install 'mjenv[distributed]'") from None
    started = False
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=None if address else workers,
                 include_dashboard=False, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(play_chunk)
        pending = [remote.remote(config, chunk) for chunk in chunks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def game_stream(config: ArenaConfig, chunks: list[list[Task]], workers: int, backend: str,
                ray_address: str | None = None) -> Iterator[list[tuple[str, Rows]]]:
    """The played chunks, as they finish, on the chosen backend."""
    if backend == "ray":
        return _run_ray(config, chunks, workers, ray_address)
    if workers == 1:
        return _run_inline(config, chunks)
    return _run_processes(config, chunks, workers)


def chunks_of(tasks: list[Task], size: int) -> list[list[Task]]:
    """``tasks`` cut into chunks of ``size`` games (a worker's unit of work)."""
    return [tasks[i:i + size] for i in range(0, len(tasks), size)]


def run_arena(config: ArenaConfig, out: str | Path, *, workers: int = 1,
              backend: str = "process", ray_address: str | None = None,
              progress: bool = True, chunk_deals: int = 2,
              on_game: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Play (or finish) the run in ``out``; returns the results (also in results.json)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {list(BACKENDS)}, got {backend!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    folder = RunFolder.open(out, config)
    todo = [t for t in config.tasks() if t.key not in folder.done]
    per_deal = len(config.seatings())
    chunks = chunks_of(todo, max(1, chunk_deals) * per_deal)
    stream = game_stream(config, chunks, workers, backend, ray_address)
    total = len(config.tasks())
    bar = _progress(total, len(folder.done), progress)
    for games in stream:
        for key, rows in games:
            folder.add(key, rows)
            if on_game is not None:
                on_game(key)
            bar(1)
    bar(0, close=True)
    results = {"config": config.to_json(),
               **summarize(folder.rows, config.names, config.mode)}
    folder.write_results(results)
    try:
        from mjenv.arena.plots import write_plots

        write_plots(folder.rows, config, results, folder.path)
    except ImportError:
        print("matplotlib is not installed: no plots", file=sys.stderr)
    return results


def _progress(total: int, done: int, show: bool) -> Callable[..., None]:
    """A progress bar on stderr (tqdm when installed)."""
    if not show:
        return lambda n, close=False: None
    try:
        from tqdm import tqdm
    except ImportError:
        return lambda n, close=False: None
    bar = tqdm(total=total, initial=done, unit="game", file=sys.stderr, dynamic_ncols=True)

    def update(n: int, close: bool = False) -> None:
        bar.update(n)
        if close:
            bar.close()
    return update


def print_table(results: dict[str, Any]) -> str:
    return table(results, results["config"]["names"])
