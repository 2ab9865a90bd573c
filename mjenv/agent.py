"""The agent interface shared by the arena, training and the Botzone bridge, and agent specs.

An agent is any object with

``reset(seat, seed=None)``
    a new hand (or match) begins and the agent plays ``seat``; ``seed`` makes it reproducible;
``act(observation, action_mask) -> int``
    the action id (0..234) for one decision: ``observation`` is the env's ``"observation"``
    array for the agent's seat, ``action_mask`` its 235 int8 legal-action mask;

and optionally ``act_batch(observations, action_masks) -> sequence of ints`` for many decisions
at once (stacked arrays), which :func:`act_batch` uses when present; ``batch_safe``, true when
each row of ``act_batch`` depends on that row's observation and mask alone (whatever game, seat
or ``reset`` it came from: a network's argmax), which lets the arena hand it the decisions of a
deal's games side by side (mjenv.arena.play); and
``observe_events(events, view)``, which the arena calls before every decision of any seat with
the events of the hand the agent's seat may see that it has not been shown yet (redacted:
mjenv.engine.events.view) and that seat's :class:`~mjenv.engine.seat_view.SeatView` after them
(read-only); if it raises, the seat is penalized as if ``act`` had raised. A Botzone bot program
needs it (mjenv.botzone.program_agent): it must answer every turn, not only the seat's
decisions. An agent whose class sets ``uses_observation = False`` reads only the mask (a random
player): wrappers that play it as an opponent may hand it a shared zero array instead of
encoding its observation (mjenv.single_agent). Agents read only what the environment gives
their seat; they never see the engine.

Agents are named by **specs**, strings resolved at run time (``mjenv`` imports no agent
package at module level)::

    random                            a registered name
    policy:runs/demo/final.pt         a registered name with its argument
    package.module:Class              any importable class (or factory function)

followed by optional ``key=value`` options separated by spaces (values are Python literals,
else strings; spaces inside quotes or brackets stay in the value): ``"random seed=3"``,
``"policy:model.pt device=cuda"``, ``"my.mod:Agent name='a b' sizes=[64, 64]"``.

**Registered names** are the entry points of the group ``mjenv.agents`` of the installed
distributions (:mod:`mjenv.plugins`), so another package adds agents without touching mjenv.
mjenv's own::

    random       mjenv_agents.random_agent:RandomAgent
    greedy       mjenv_agents.greedy:GreedyShantenAgent
    rule         mjenv_agents.rule_based:RuleBasedAgent
    lookahead    mjenv_agents.lookahead:LookaheadAgent: ``rule`` with one draw of search on its
                 own turns (stronger than ``rule``: docs/training.md)
    policy:PATH  mjenv_agents.policy:PolicyAgent(path=PATH): a checkpoint of the torch policy
    pretrained   mjenv_agents.pretrained:PretrainedAgent: the policy checkpoint shipped in the
                 package (docs/training.md, "The shipped policy")
    botzone:"python bot.py"
                 mjenv.botzone.program_agent:BotzoneProgramAgent(command="python bot.py"): a
                 Botzone bot program

``NAME:ARG`` gives ARG to the option that the factory names in its attribute
``spec_argument`` (``PolicyAgent.spec_argument = "path"``); a factory without one takes no
argument. The factory is imported to read it only when an argument is given, so parsing
``random`` or ``policy`` imports nothing; ARG may be quoted (``policy:'my runs/x.pt'``).

**Specs are code** (docs/security.md): an import string calls whatever it names. Where specs
may come from someone else, set ``MJENV_ALLOW_IMPORT=0``: only registered names are accepted,
and of those not the ones that run programs (``botzone:``, whose factory declares
``runs_programs = True``) unless ``MJENV_ALLOW_PROGRAMS=1``. Every path to an agent (the
commands, training configs, wrappers, library calls, worker processes) goes through
:func:`parse_spec`, so the setting holds everywhere.
"""

from __future__ import annotations

import ast
import importlib
import os
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from mjenv import plugins


@runtime_checkable
class Agent(Protocol):
    """See the module docstring."""

    def reset(self, seat: int, seed: int | None = None) -> None: ...

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


def _shown(spec: object, limit: int = 80) -> str:
    """``spec`` (or an error text) as an error message quotes it: a string's repr, cut to
    ``limit`` characters, so that a pathological spec still gives one readable line."""
    text = repr(spec) if isinstance(spec, str) else str(spec)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _value(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, RecursionError, MemoryError):  # not a literal: the text
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
        raise ValueError(f"agent spec {_shown(spec)}: unbalanced quotes or brackets")
    if word:
        words.append("".join(word))
    return words


def registered_agents() -> dict[str, str]:
    """The registered spec names -> ``"module:attr"`` (entry points ``mjenv.agents``)."""
    return plugins.agent_entry_points()


def load_factory(spec: str, path: str) -> Callable[..., Any]:
    """The callable that the import path ``module:attr`` (from :func:`parse_spec`) names;
    ValueError naming ``spec`` when it cannot be imported or is not callable."""
    module_name, _, attr = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(
            f"agent spec {_shown(spec)}: cannot import {module_name!r} ({exc})") from None
    factory = getattr(module, attr, None)
    if factory is None or not callable(factory):
        raise ValueError(f"agent spec {_shown(spec)}: {module_name!r} has no callable {attr!r}")
    return factory  # type: ignore[no-any-return]


def spec_argument(factory: Callable[..., Any]) -> str | None:
    """The option a factory's ``NAME:ARG`` argument fills (its ``spec_argument``), or None."""
    field = getattr(factory, "spec_argument", None)
    return field if isinstance(field, str) and field.isidentifier() else None


def imports_allowed() -> bool:
    """Whether specs may name any importable object (``MJENV_ALLOW_IMPORT``, default on)."""
    return os.environ.get("MJENV_ALLOW_IMPORT", "1").strip() != "0"


def programs_allowed() -> bool:
    """Whether registered agents that run programs are allowed when imports are off
    (``MJENV_ALLOW_PROGRAMS=1``)."""
    return imports_allowed() or os.environ.get("MJENV_ALLOW_PROGRAMS", "0").strip() == "1"


def _check_trusted(spec: str, name: str, path: str) -> None:
    """Refuse what ``MJENV_ALLOW_IMPORT=0`` rules out (see the module docstring)."""
    if programs_allowed():
        return
    if getattr(load_factory(spec, path), "runs_programs", False) is True:
        raise ValueError(f"agent spec {_shown(spec)}: {name!r} runs a program, which is off "
                         "(MJENV_ALLOW_IMPORT=0; MJENV_ALLOW_PROGRAMS=1 allows it)")


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``spec`` -> (``"module:attr"`` import path, keyword options). ValueError if malformed."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec is a non-empty string, got {_shown(spec)}")
    head, *rest = _split(spec)
    options: dict[str, Any] = {}
    for item in rest:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise ValueError(f"agent spec {_shown(spec)}: option {item!r} is not key=value")
        if key in options:
            raise ValueError(f"agent spec {_shown(spec)}: option {key!r} given twice")
        options[key] = _value(value)
    name, colon, arg = head.partition(":")
    registered = registered_agents()
    if name in registered:
        path = registered[name]
        if colon:  # only now is the factory imported, to learn which option ARG fills
            field = spec_argument(load_factory(spec, path))
            if field is None:
                raise ValueError(f"agent spec {_shown(spec)}: {name!r} takes no ':' argument")
            if not arg:
                raise ValueError(f"agent spec {_shown(spec)}: {name} needs a {field}: "
                                 f"'{name}:{field.upper()}'")
            if field in options:
                raise ValueError(f"agent spec {_shown(spec)}: the {field} is given twice "
                                 f"(after '{name}:' and as {field}=)")
            options[field] = _value(arg) if arg[0] in "'\"" else arg  # 'a path with spaces'
        _check_trusted(spec, name, path)
        return path, options
    known = ", ".join(registered) or "none installed"
    if not imports_allowed():
        raise ValueError(f"agent spec {_shown(spec)}: import strings are off "
                         f"(MJENV_ALLOW_IMPORT=0); use a registered name ({known})")
    if not colon or not arg or not all(p.isidentifier() for p in name.split(".")):
        raise ValueError(f"unknown agent spec {_shown(spec)}: use a registered name ({known}; "
                         "'NAME:ARG' where it takes an argument, e.g. a policy's checkpoint) "
                         "or 'package.module:Class'")
    return head, options


def make_agent(spec: str) -> Agent:
    """The agent a spec names (see the module docstring); ValueError with the reason if the
    spec is malformed, names nothing importable, or gives options the agent does not take."""
    path, options = parse_spec(spec)
    factory = load_factory(spec, path)
    try:
        agent = factory(**options)
    except (TypeError, OSError) as exc:  # options it does not take; a missing checkpoint
        field = spec_argument(factory)
        if isinstance(exc, TypeError) and field is not None and field not in options:
            name = _split(spec)[0].partition(":")[0]
            raise ValueError(f"agent spec {_shown(spec)}: {name} needs a {field}: "
                             f"'{name}:{field.upper()}'") from None
        raise ValueError(f"agent spec {_shown(spec)}: {_shown(exc, 300)}") from None
    except ValueError as exc:
        raise ValueError(f"agent spec {_shown(spec)}: {_shown(exc, 300)}") from None
    except Exception as exc:  # an agent that fails to start is one line, not a traceback
        raise ValueError(f"agent spec {_shown(spec)}: cannot build it: "
                         f"{type(exc).__name__}: {_shown(exc, 300)}") from None
    if not isinstance(agent, Agent):
        raise ValueError(
            f"agent spec {_shown(spec)}: {path} is not an agent (needs reset and act)")
    return agent


def act_batch(agent: Agent, observations: np.ndarray,
              action_masks: np.ndarray) -> Sequence[int]:
    """Many decisions of one agent: its ``act_batch`` if it has one, else ``act`` in a loop."""
    batched = getattr(agent, "act_batch", None)
    if batched is not None:
        return [int(a) for a in batched(observations, action_masks)]
    return [agent.act(o, m) for o, m in zip(observations, action_masks, strict=True)]
