"""Run an arena: schedule the games, play them on worker processes (or Ray), write every game
as it finishes, resume what a previous run left, summarize, plot.

>>> from mjenv.arena import ArenaConfig, run_arena
>>> config = ArenaConfig(agents=("random seed=1", "random"), deals=20)   # doctest: +SKIP
>>> results = run_arena(config, "runs/arena-demo", workers=2)            # doctest: +SKIP

Work is cut into chunks of games (a few deals each); a worker plays a chunk and returns its
rows, and the parent appends them to the folder (mjenv.arena.store). Results do not depend on
the number of workers or on the backend: every game's seeds come from the schedule.

Nothing is written before every agent is built in this process (a missing checkpoint, a bad
option or an unimportable class stops the run with the folder untouched, and the corrected
command starts cleanly). Worker processes die with the parent however it ends
(mjenv.procs.die_with_parent), ignore Ctrl-C (the parent handles it) and run numerical
libraries on one thread; games played here hold an already imported torch to one thread too,
for the same speed and the same results as on a worker. An exception in the parent (Ctrl-C,
mjenv.procs.Terminated) stops the workers at once: the games they were playing are not done
and a re-run replays them. Each penalty is reported on stderr as it arrives, its traceback
appended to ``errors.log``.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections import Counter
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from mjenv.agent import Agent
from mjenv.arena.config import ArenaConfig, Task
from mjenv.arena.play import (
    Failure,
    batched_specs,
    build_agent,
    forget_agents,
    play_deal,
    use_agents,
)
from mjenv.arena.records import FOLDER, RecordSelection, parse_records, record_name
from mjenv.arena.stats import summarize, table
from mjenv.arena.store import RunFolder
from mjenv.procs import (
    die_with_parent,
    ignore_interrupts,
    one_thread_env,
    sigterm_raises,
    torch_threads,
)

BACKENDS = ("process", "ray")
Rows = list[dict[str, Any]]
Played = tuple[str, Rows, list[Failure], str | None]
"""One game as a worker returns it: its key, its rows, its penalties, its record (JSON text,
when the run keeps it)."""
Stream = Generator[list[Played], None, None]
"""Chunks of played games as they finish (:func:`game_stream`)."""


def play_chunk(config: ArenaConfig, tasks: Sequence[Task],
               records: RecordSelection | None = None) -> list[Played]:
    """Play ``tasks`` in this process, deal by deal (:func:`~mjenv.arena.play.play_deal`);
    (key, rows, penalties, record) per game, in order."""
    played: list[Played] = []
    start = 0
    while start < len(tasks):
        end = start + 1
        while end < len(tasks) and tasks[end].deal == tasks[start].deal:
            end += 1
        deal = tasks[start:end]
        played += [(t.key, *p) for t, p in zip(deal, play_deal(config, deal, records),
                                                 strict=True)]
        start = end
    return played


def _run_inline(config: ArenaConfig, chunks: list[list[Task]],
                records: RecordSelection | None) -> Stream:
    with torch_threads(1):
        for chunk in chunks:
            yield play_chunk(config, chunk, records)


def _start_worker(parent: int) -> None:
    """Worker initializer: die with ``parent`` (the arena's process), leave Ctrl-C to it, and
    one thread for numerical libraries imported from now on (torch by a policy agent): N
    workers then use N cores instead of N x cores threads that fight over them."""
    die_with_parent(parent)
    ignore_interrupts()
    one_thread_env()


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers now, whatever they are playing (their games are not done: a
    re-run replays them), then let the pool wind down. ``shutdown`` alone would wait for every
    running chunk to finish."""
    stop = getattr(pool, "terminate_workers", None)  # Python 3.14
    if stop is not None:
        stop()
    else:  # the pool's own table of its processes (what terminate_workers reads)
        processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


class WorkerPool:
    """Arena worker processes kept from one run to the next. A caller that plays many short
    runs, such as PPO's learning-curve points, then starts the workers (and their import of
    torch, seconds each time) once. Results are those of fresh workers: each run builds its
    agents anew on every worker, so a checkpoint rewritten between runs is read again.

    >>> with WorkerPool(2) as pool:                                      # doctest: +SKIP
    ...     for deals in (20, 40):
    ...         run_arena(ArenaConfig(agents=("rule", "greedy"), deals=deals),
    ...                   f"runs/pool-{deals}", pool=pool)

    The processes start at the first run and end at :meth:`close` (or when the ``with`` block
    ends); they die with the parent in any case. A run that fails or is interrupted ends them
    at once, and the next run starts new ones."""

    def __init__(self, workers: int) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a positive integer, got {workers!r}")
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._runs = 0

    def begin_run(self) -> tuple[ProcessPoolExecutor, int]:
        """The executor (started if need be) and a number naming the run about to play."""
        if self._executor is None:
            import multiprocessing

            context = multiprocessing.get_context("spawn")  # no state inherited: a fresh run
            self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=context,
                                                 initializer=_start_worker,
                                                 initargs=(os.getpid(),))
        self._runs += 1
        return self._executor, self._runs

    def stop(self) -> None:
        """End the workers now, whatever they are playing (after a failed run)."""
        if self._executor is not None:
            _stop_workers(self._executor)
            self._executor = None

    def close(self) -> None:
        """Let the workers finish and end."""
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None:
            self.close()
        else:
            self.stop()


_RUN_PLAYING = 0
"""In a worker of a :class:`WorkerPool`: the run whose agents this process holds."""


def play_run_chunk(run: int, config: ArenaConfig, tasks: Sequence[Task],
                   records: RecordSelection | None = None) -> list[Played]:
    """:func:`play_chunk` on a pool's worker: the first chunk of a new ``run`` drops the
    agents of the last one, so the run builds its own, as a fresh worker would."""
    global _RUN_PLAYING
    if run != _RUN_PLAYING:
        forget_agents()
        _RUN_PLAYING = run
    return play_chunk(config, tasks, records)


def _run_processes(config: ArenaConfig, chunks: list[list[Task]], pool: WorkerPool,
                   records: RecordSelection | None, *, keep: bool) -> Stream:
    """The chunks played on ``pool``'s workers; with ``keep`` false, the pool is closed when
    the run ends (a pool of this run's own)."""
    executor, run = pool.begin_run()
    finished = False
    try:
        pending: set[Future[list[Played]]] = set()
        queue = iter(chunks)
        for chunk in queue:
            pending.add(executor.submit(play_run_chunk, run, config, chunk, records))
            if len(pending) >= 2 * pool.workers:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                more = next(queue, None)
                if more is not None:
                    pending.add(executor.submit(play_run_chunk, run, config, more, records))
        finished = True
    finally:  # also on Ctrl-C, SIGTERM (Terminated), a failed chunk, or close() of the stream
        if not finished:
            pool.stop()
        elif not keep:
            pool.close()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ValueError("--backend ray needs Ray: pip install 'mjenv[distributed]'") from None
    return ray


def _run_ray(config: ArenaConfig, chunks: list[list[Task]], workers: int,
             address: str | None, records: RecordSelection | None) -> Stream:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=None if address else workers,
                 include_dashboard=False, log_to_driver=False)
        started = True
    try:
        # ray.init replaces the SIGTERM handler with one that aborts at exit: ours again, so
        # that SIGTERM raises Terminated here and the finally below shuts Ray down
        with sigterm_raises():
            remote = ray.remote(play_chunk)
            pending = [remote.remote(config, chunk, records) for chunk in chunks]
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
    finally:  # Ray's own shutdown ends the local cluster's workers (also on an exception)
        if started:
            ray.shutdown()


def game_stream(config: ArenaConfig, chunks: list[list[Task]], workers: int, backend: str,
                ray_address: str | None = None,
                records: RecordSelection | None = None,
                pool: WorkerPool | None = None) -> Stream:
    """The played chunks, as they finish, on the chosen backend (with the records that
    ``records`` selects; on ``pool``'s workers when one is given). Close the stream (or
    exhaust it) to stop the workers: :func:`run_arena` does, also when it is interrupted."""
    if backend == "ray":
        return _run_ray(config, chunks, workers, ray_address, records)
    if pool is not None:
        return _run_processes(config, chunks, pool, records, keep=True)
    if workers == 1:
        return _run_inline(config, chunks, records)
    return _run_processes(config, chunks, WorkerPool(workers), records, keep=False)


def chunks_of(tasks: list[Task], size: int) -> list[list[Task]]:
    """``tasks`` cut into chunks of ``size`` games (a worker's unit of work)."""
    return [tasks[i:i + size] for i in range(0, len(tasks), size)]


def build_agents(config: ArenaConfig) -> dict[str, Agent]:
    """Every agent of ``config`` built once here (spec -> agent): ValueError, one line naming
    the spec, for the first that cannot be (before anything is written)."""
    return {spec: build_agent(spec) for spec in dict.fromkeys(config.agents)}


def run_arena(config: ArenaConfig, out: str | Path, *, workers: int = 1,
              backend: str = "process", ray_address: str | None = None,
              progress: bool = True, chunk_deals: int = 2,
              on_game: Callable[[str], None] | None = None,
              records: str | RecordSelection | None = None,
              pool: WorkerPool | None = None) -> dict[str, Any]:
    """Play (or finish) the run in ``out``; returns the results (also in results.json).

    ``pool`` (a :class:`WorkerPool`, process backend) plays the games on workers kept from
    an earlier run instead of starting ``workers`` new ones; the results are the same.

    ``records`` (``"all"``, ``"won"``, ``"penalized"``, ``"sample:N"`` or a comma-separated
    union; mjenv.arena.records) keeps the record of each selected game in ``out/records/``;
    the results are the same with or without. Everything is checked and every agent built
    before ``out`` is touched (see the module docstring); ValueError says what is wrong. Each
    penalty is reported on stderr."""
    if isinstance(records, str):
        records = parse_records(records)
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {list(BACKENDS)}, got {backend!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if pool is not None and backend != "process":
        raise ValueError(f"a worker pool plays on the process backend, not {backend!r}")
    if backend == "ray":
        _import_ray()
    agents = build_agents(config)
    folder = RunFolder.open(out, config, records)
    together = bool(batched_specs(agents))
    if backend == "process" and workers == 1 and pool is None:
        use_agents(agents)  # played here: no second load of a checkpoint
    del agents  # on workers, each builds its own: free this process's copies
    todo = [t for t in config.tasks() if t.key not in folder.done]
    if together:  # a deal's games are played side by side: a deal begun is played again whole
        begun = {t.deal for t in todo}
        todo = [t for t in config.tasks() if t.deal in begun]
    per_deal = len(config.seatings())
    chunks = chunks_of(todo, max(1, chunk_deals) * per_deal)
    # a deal is done with its last seating still to play
    games_left = Counter(t.deal for t in todo if t.key not in folder.done)
    bar = _Progress(config.deals, config.deals - len(games_left), len(config.tasks()),
                    len(folder.done), progress)
    try:
        with contextlib.closing(game_stream(config, chunks, workers, backend,
                                            ray_address, records, pool)) as stream:
            for games in stream:
                for key, rows, failures, record in games:
                    if key in folder.done:  # replayed with its deal: kept from before
                        continue
                    _report(folder, key, failures, bar.write, recorded=record is not None)
                    folder.add(key, rows, record)
                    if on_game is not None:
                        on_game(key)
                    deal = int(key.partition(":")[0])
                    games_left[deal] -= 1
                    bar.update(deals=int(games_left[deal] == 0))
    finally:
        bar.close()
    results = {"config": config.to_json(),
               **summarize(folder.rows, config.names, config.mode)}
    folder.write_results(results)
    try:
        from mjenv.arena.plots import write_plots

        write_plots(folder.rows, config, results, folder.path)
    except ImportError:
        print("no plots: matplotlib is not installed (pip install 'mjenv[plots]')", file=sys.stderr)
    return results


def _report(folder: RunFolder, key: str, failures: list[Failure],
            write: Callable[[str], None], recorded: bool = False) -> None:
    """One warning line per penalty of game ``key`` (naming the game's record when it has
    one: the hand can be watched); the tracebacks to errors.log."""
    if not failures:
        return
    deal, _, seating = key.partition(":")
    match = folder.config.episode == "match"
    where_record = ""
    if recorded:
        where_record = f", record {folder.path / FOLDER / record_name(int(deal), int(seating))}"
    log = []
    for f in failures:
        where = f"deal {deal}, seating {seating}" + (f", hand {f.hand}" if match else "")
        write(f"penalty: {where}, {f.error} (traceback in {folder.path / 'errors.log'}"
              f"{where_record})")
        log.append(f"== {where}, {f.error}\n{f.traceback}\n")
    folder.log_errors("".join(log))


class _Progress:
    """A progress bar on stderr (tqdm when installed) counting deals — what ``--deals`` asked
    for — with the games (each deal's seatings) beside it; :meth:`write` prints a line above
    the bar."""

    def __init__(self, deals: int, deals_done: int, games: int, games_done: int,
                 show: bool) -> None:
        self.games, self.games_done = games, games_done
        self.bar: Any = None
        if show:
            try:
                from tqdm import tqdm
            except ImportError:
                pass
            else:
                self.bar = tqdm(total=deals, initial=deals_done, unit="deal", file=sys.stderr,
                                dynamic_ncols=True)
                self._postfix()

    def _postfix(self) -> None:
        self.bar.set_postfix_str(f"{self.games_done}/{self.games} games", refresh=False)

    def update(self, deals: int) -> None:
        self.games_done += 1
        if self.bar is not None:
            self._postfix()
            self.bar.update(deals)

    def write(self, line: str) -> None:
        if self.bar is not None:
            self.bar.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def print_table(results: dict[str, Any]) -> str:
    return table(results, results["config"]["names"])
