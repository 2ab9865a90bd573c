"""The agent interface shared by the arena, training and the Botzone bridge, and agent specs.

An agent is any object with

``reset(seat, seed=None)``
    a new hand (or match) begins and the agent plays ``seat``; ``seed`` makes it reproducible;
``act(observation, action_mask) -> int``
    the action id (0..234) for one decision: ``observation`` is the env's ``"observation"``
    array for the agent's seat, ``action_mask`` its 235 int8 legal-action mask;

and optionally ``act_batch(observations, action_masks) -> sequence of ints`` for many decisions
at once (stacked arrays), which :func:`act_batch` uses when present, and
``observe_events(events, view)``, which the arena calls before every decision of any seat with
the events of the hand the agent's seat may see that it has not been shown yet (redacted:
mjenv.engine.events.view) and that seat's :class:`~mjenv.engine.seat_view.SeatView` after them
(read-only); if it raises, the seat is penalized as if ``act`` had raised. A Botzone bot program
needs it (mjenv.botzone.program_agent): it must answer every turn, not only the seat's
decisions. Agents read only what the
environment gives their seat; they never see the engine.

Agents are named by **specs**, strings resolved at run time (``mjenv`` never imports the
``agents`` package at module level)::

    random                            agents.random_agent:RandomAgent
    greedy                            agents.greedy:GreedyShantenAgent
    rule                              agents.rule_based:RuleBasedAgent
    policy:runs/demo/final.pt         agents.policy:PolicyAgent(path="runs/demo/final.pt")
    botzone:"python bot.py"           mjenv.botzone.program_agent:BotzoneProgramAgent(
                                          command="python bot.py"): a Botzone bot program
    package.module:Class              any importable class (or factory function)

followed by optional ``key=value`` options separated by spaces (values are Python literals,
else strings; spaces inside quotes or brackets stay in the value): ``"random seed=3"``,
``"policy:model.pt device=cuda"``, ``"my.mod:Agent name='a b' sizes=[64, 64]"``.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

BUILTIN_AGENTS: dict[str, str] = {
    "random": "agents.random_agent:RandomAgent",
    "greedy": "agents.greedy:GreedyShantenAgent",
    "rule": "agents.rule_based:RuleBasedAgent",
    "policy": "agents.policy:PolicyAgent",
    "botzone": "mjenv.botzone.program_agent:BotzoneProgramAgent",
}
"""Short spec names -> import paths. ``policy`` takes its checkpoint path after a colon,
``botzone`` a Botzone bot program's command line (``botzone:"python bot.py"``)."""

_ARGUMENT = {"policy": "path", "botzone": "command"}
"""The option a builtin's ``name:ARG`` argument fills."""


@runtime_checkable
class Agent(Protocol):
    """See the module docstring."""

    def reset(self, seat: int, seed: int | None = None) -> None: ...

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


def _value(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _split(spec: str) -> list[str]:
    """``spec`` split at whitespace outside quotes and brackets (``d='a b'``, ``c=[1, 2]``)."""
    words: list[str] = []
    word: list[str] = []
    quote = ""
    depth = 0
    for ch in spec:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(depth - 1, 0)
        elif ch.isspace() and depth == 0:
            if word:
                words.append("".join(word))
                word = []
            continue
        word.append(ch)
    if quote or depth:
        raise ValueError(f"agent spec {spec!r}: unbalanced quotes or brackets")
    if word:
        words.append("".join(word))
    return words


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``spec`` -> (``"module:attr"`` import path, keyword options). ValueError if malformed."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec is a non-empty string, got {spec!r}")
    head, *rest = _split(spec)
    options: dict[str, Any] = {}
    for item in rest:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise ValueError(f"agent spec {spec!r}: option {item!r} is not key=value")
        if key in options:
            raise ValueError(f"agent spec {spec!r}: option {key!r} given twice")
        options[key] = _value(value)
    name, colon, arg = head.partition(":")
    if name in BUILTIN_AGENTS:
        field = _ARGUMENT.get(name)
        if field is not None:
            if not arg:
                raise ValueError(f"agent spec {spec!r}: {name} needs a {field}: "
                                 f"'{name}:{field.upper()}'")
            if field in options:
                raise ValueError(f"agent spec {spec!r}: the {field} is given twice "
                                 f"(after '{name}:' and as {field}=)")
            options[field] = _value(arg) if arg[0] in "'\"" else arg  # 'a path with spaces'
        elif colon:
            raise ValueError(f"agent spec {spec!r}: {name!r} takes no ':' argument")
        return BUILTIN_AGENTS[name], options
    if not colon or not arg or not all(p.isidentifier() for p in name.split(".")):
        known = ", ".join(sorted(BUILTIN_AGENTS))
        raise ValueError(f"unknown agent spec {spec!r}: use one of {known}, 'policy:PATH', "
                         "'botzone:\"COMMAND\"' "
                         "or 'package.module:Class'")
    return head, options


def make_agent(spec: str) -> Agent:
    """The agent a spec names (see the module docstring); ValueError with the reason if the
    spec is malformed, names nothing importable, or gives options the agent does not take."""
    path, options = parse_spec(spec)
    module_name, _, attr = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"agent spec {spec!r}: cannot import {module_name!r} ({exc})") from None
    factory = getattr(module, attr, None)
    if factory is None or not callable(factory):
        raise ValueError(f"agent spec {spec!r}: {module_name!r} has no callable {attr!r}")
    try:
        agent = factory(**options)
    except (TypeError, OSError) as exc:  # options it does not take; a missing checkpoint
        raise ValueError(f"agent spec {spec!r}: {exc}") from None
    if not isinstance(agent, Agent):
        raise ValueError(f"agent spec {spec!r}: {path} is not an agent (needs reset and act)")
    return agent


def act_batch(agent: Agent, observations: np.ndarray,
              action_masks: np.ndarray) -> Sequence[int]:
    """Many decisions of one agent: its ``act_batch`` if it has one, else ``act`` in a loop."""
    batched = getattr(agent, "act_batch", None)
    if batched is not None:
        return [int(a) for a in batched(observations, action_masks)]
    return [agent.act(o, m) for o, m in zip(observations, action_masks, strict=True)]
