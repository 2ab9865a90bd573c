"""The arena: fair agent-vs-agent evaluation with duplicate deals (docs/arena.md).

:class:`ArenaConfig` says what to play (agents, mode, deals, seed, rules), :func:`run_arena`
plays it into an output folder that is written as it goes and resumes (with the records of the
games that ``records=`` selects: :mod:`mjenv.arena.records`); ``mjenv arena`` is the command
line.
"""

from mjenv.arena.config import ArenaConfig, Task
from mjenv.arena.runner import WorkerPool, run_arena
from mjenv.arena.stats import summarize

__all__ = ["ArenaConfig", "Task", "WorkerPool", "run_arena", "summarize"]
