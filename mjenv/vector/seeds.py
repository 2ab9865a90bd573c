"""The seed stream of a batch: which seed each game slot's each episode is played with.

Why a stream per slot. A run must be the same games whatever the batch size and however the
batch is split between worker processes; a global counter of episodes would hand seeds out in
the order games happen to finish, which depends on both. So the seed of an episode depends only
on the run's seed, the slot and how many episodes that slot has played before:

    episode_seed(seed, slot, episode) =
        SeedSequence(seed, spawn_key=(slot, episode)).generate_state(1, uint64)[0]

``seed`` is the run's seed (``reset(seed=...)``), ``slot`` the game's index in the batch
(0..N-1) and ``episode`` counts that slot's episodes from 0 (the reset starts episode 0; each
auto-reset the next). An episode is what ``raw_env``'s ``episode`` option says (a hand or a
match), and ``raw_env().reset(seed=episode_seed(seed, slot, episode))`` deals exactly the same
episode. Slot ``k`` of a batch of any size ``N > k`` plays the same episodes: a run of 1,024
games contains the run of 64 as its first 64 slots. ``numpy``'s ``SeedSequence`` makes the
streams of different slots and different run seeds statistically independent.
"""

from __future__ import annotations

import operator

import numpy as np


def episode_seed(seed: int, slot: int, episode: int) -> int:
    """The seed (0 .. 2**64 - 1) of slot ``slot``'s episode number ``episode`` in a run reset
    with ``seed`` (see the module docstring)."""
    state = np.random.SeedSequence(seed, spawn_key=(slot, episode)).generate_state(1, np.uint64)
    return int(state[0])


def fresh_seed() -> int:
    """A run seed from the operating system's entropy (for ``reset(seed=None)``)."""
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])


def check_seed(seed: object) -> int:
    """``seed`` as a non-negative int; ValueError otherwise (a ``SeedSequence`` takes no
    negative entropy and no other type)."""
    if isinstance(seed, bool):
        raise ValueError(f"a seed is a non-negative int, got {seed!r}")
    try:
        value = operator.index(seed)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"a seed is a non-negative int, got {seed!r}") from None
    if value < 0:
        raise ValueError(f"a seed is a non-negative int, got {seed!r}")
    return value
