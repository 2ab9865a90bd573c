"""Loading the next games' state into the caches while the batch steps the current one.

A batch of a thousand games holds about 47 MB of state (docs/vector.md, "Choosing N"), more
than the processor's caches: every game's lists and records have left them by its next turn,
and its step reads them one pointer after another, each read waiting for memory in turn. So
before the batch steps game ``i`` it prefetches the working set of game ``i + AHEAD``
(:attr:`GameSlot.working_set`: the objects its game, seat views and encoder name in their
``state_objects``), and those loads are in flight together while game ``i`` steps. Some state
changes objects from step to step (an encoder's memo blocks: a river's block is a new bytes
object after each discard), so it cannot be named once; its holders name the lists that hold
it (``state_lists``, :attr:`GameSlot.item_lists`), and the batch prefetches those lists' items
for game ``i + 1`` (:func:`prefetch_items`): the lists came with game ``i + 1``'s working set a
game earlier, so reading their items' addresses does not wait for memory.

:func:`prefetch` is a small C function (mjenv/_prefetch.c) that only issues the processor's
prefetch instructions: it changes nothing, so the games, observations and results are the same
with it and without it. Where it is not built (``MJENV_PURE_PYTHON=1``, no C compiler) it is a
function that does nothing; interpreted Python waits on its own work far more than on memory.
"""

from __future__ import annotations

from typing import Any, Final

try:
    from mjenv._prefetch import prefetch, prefetch_items
except ImportError:  # the plain-Python install

    def prefetch(objects: list[object]) -> None:
        """Nothing to do without the C function (see the module docstring)."""

    def prefetch_items(lists: list[list[Any]]) -> None:
        """Nothing to do without the C function (see the module docstring)."""


AHEAD: Final = 2
"""How many games ahead of the one stepping the batch prefetches: far enough for the loads to
arrive before the game steps, near enough that they are still in the core's own caches then
(docs/vector-performance.md, 2026-12-05: 1, 2, 4 and 8 gained alike)."""

__all__ = ["AHEAD", "prefetch", "prefetch_items"]
