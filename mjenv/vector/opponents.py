"""The fixed agents of a learner batch, and how their decisions are grouped into batches.

Why grouping: a policy network answers a thousand decisions in one forward pass about as fast
as one; so in each round of play, the decisions that fall to the same agent object across the
batch's games go to it together, through its ``act_batch`` when it has one
(:func:`mjenv.agent.act_batch`).

Which objects: ``opponents`` is as for :class:`~mjenv.single_agent.SingleAgentEnv` (one agent
spec or agent for the three seats after the learner's, or a list of three). A **spec** whose
agent has ``act_batch`` is made once per position and shared by every game (one batch per
position and round); a spec without ``act_batch`` is made once per game and position, so each
game's opponents are exactly what ``SingleAgentEnv`` would make (their own generators, reset
with that game's seeds). An **agent object** is shared by every game as given; its ``reset`` is
called for each game's episodes, so a stateful object (a random generator) sees all games
interleaved: pass a spec to keep games independent and reproducible at any batch size.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mjenv.agent import Agent, act_batch, make_agent

OpponentSpec = str | Agent


def opponent_list(opponents: OpponentSpec | Sequence[OpponentSpec]) -> list[OpponentSpec]:
    """Three opponents from one or three specs / agents (ValueError otherwise)."""
    if isinstance(opponents, (str, Agent)):
        return [opponents] * 3
    try:
        items = list(opponents)
    except TypeError:
        raise ValueError("opponents: one agent spec or agent, or a list of three; got "
                         f"{opponents!r}") from None
    if len(items) != 3:
        raise ValueError(f"give one opponent (a spec or an agent) or three, got {len(items)}")
    for o in items:
        if not isinstance(o, (str, Agent)):
            raise ValueError(f"an opponent is an agent spec or an agent (with reset and act), "
                             f"got {o!r}")
    return items


def batches(agent: Agent) -> bool:
    """Whether ``agent`` answers many decisions at once (``act_batch``)."""
    return callable(getattr(agent, "act_batch", None))


class Opponents:
    """``agent(game, position)``: the agent of the ``position``-th seat after the learner's
    (0..2) in game ``game`` of a shard of ``count`` games (see the module docstring)."""

    def __init__(self, opponents: Sequence[OpponentSpec], count: int) -> None:
        self._by_position: list[list[Agent]] = []
        for o in opponents:
            if not isinstance(o, str):
                self._by_position.append([o] * count)
                continue
            first = make_agent(o)
            if batches(first):
                self._by_position.append([first] * count)
            else:
                self._by_position.append([first] + [make_agent(o) for _ in range(count - 1)])

    def agent(self, game: int, position: int) -> Agent:
        return self._by_position[position][game]


def decide(agent: Agent, observations: list[np.ndarray], masks: list[np.ndarray]) -> list[int]:
    """``agent``'s actions for several decisions: one ``act`` for one decision, else its
    ``act_batch`` over the stacked arrays (``act`` in a loop without one)."""
    if len(observations) == 1:
        return [int(agent.act(observations[0], masks[0]))]
    if batches(agent):
        return list(act_batch(agent, np.stack(observations), np.stack(masks)))
    return [int(agent.act(o, m)) for o, m in zip(observations, masks, strict=True)]
