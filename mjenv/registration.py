"""Registration with PettingZoo's registry (``pettingzoo.make``) and Gymnasium's
(``gymnasium.make``).

Neither library discovers plugins: a package registers its environments when it is imported
(Gymnasium's convention: ``import ale_py`` registers ``ALE/...``; ``gymnasium.register_envs(
mjenv)`` is the no-op that keeps such an import from looking unused). But ``import mjenv`` must
stay light (no numpy, Gymnasium or PettingZoo for the fan calculator's users; PettingZoo alone
costs about 0.3 s), so ``import mjenv`` registers with each library that is already imported,
and leaves a hook in ``sys.meta_path`` that registers with the other one the moment it is
imported later. Either order works, with nothing heavy loaded for nothing::

    import mjenv
    import gymnasium
    env = gymnasium.make("mjenv/MCRMahjong-v0", opponents="greedy")   # SingleAgentEnv

    import pettingzoo
    env = pettingzoo.make("aec", "mjenv/mcr_mahjong_v0", rules="botzone")
    par = pettingzoo.make("parallel", "mjenv/mcr_mahjong_v0")

``gymnasium.make("mjenv:mjenv/MCRMahjong-v0")`` (Gymnasium's ``module:id`` form) imports mjenv
first, and importing ``mjenv.mcr_mahjong_v0`` or calling :func:`register_envs` registers
with both, as before.

Gymnasium ids (:data:`GYM_IDS`), each a :class:`~mjenv.single_agent.SingleAgentEnv` (one
learner against fixed opponents; keyword arguments of ``gymnasium.make`` override the
defaults): ``mjenv/MCRMahjong-v0`` (mcr rules, single hands) and ``mjenv/BotzoneMahjong-v0``
(the botzone profile). Their default opponents are ``greedy`` (mjenv_agents): against three
``random`` players almost every hand is an exhaustive draw and a learner sees no reward, while
``greedy`` opponents win hands, so every episode carries a signal (``opponents="random"`` is
one keyword away).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

ENV_ID = "mjenv/mcr_mahjong_v0"
"""The PettingZoo id (PettingZoo normalizes it to ``mjenv/mcr_mahjong-v0``), for ``"aec"``
(the wrapped env) and ``"parallel"`` (:func:`mjenv.mahjong_env.parallel_env`)."""
GYM_IDS: dict[str, dict[str, object]] = {
    "mjenv/MCRMahjong-v0": {"rules": "mcr", "opponents": "greedy"},
    "mjenv/BotzoneMahjong-v0": {"rules": "botzone", "opponents": "greedy"},
}
"""Gymnasium ids -> the default keyword arguments of ``SingleAgentEnv``."""
GYM_ENTRY_POINT = "mjenv.single_agent:SingleAgentEnv"


def register_pettingzoo() -> None:
    """Register :data:`ENV_ID` (AEC and parallel) with PettingZoo; harmless to repeat. A
    PettingZoo without a registry (before 1.27) is left alone: ``mjenv.env()`` and
    ``mjenv.parallel_env()`` work with any supported version."""
    import pettingzoo

    register = getattr(pettingzoo, "register", None)
    if register is None:
        return
    aec_registry = getattr(pettingzoo, "aec_registry", {})
    parallel_registry = getattr(pettingzoo, "parallel_registry", {})
    if "mjenv/mcr_mahjong-v0" not in aec_registry:
        register("aec", ENV_ID, entry_point="mjenv.mahjong_env:env")
    if "mjenv/mcr_mahjong-v0" not in parallel_registry:
        register("parallel", ENV_ID, entry_point="mjenv.mahjong_env:parallel_env")


def register_gymnasium() -> None:
    """Register :data:`GYM_IDS` with Gymnasium; harmless to repeat."""
    import gymnasium

    for env_id, kwargs in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=GYM_ENTRY_POINT, kwargs=dict(kwargs),
                               disable_env_checker=False)


def register_envs() -> None:
    """Register with both libraries (importing them); harmless to repeat."""
    register_pettingzoo()
    register_gymnasium()


_REGISTRARS: dict[str, Callable[[], None]] = {
    "pettingzoo": register_pettingzoo,
    "gymnasium": register_gymnasium,
}


class _RegisterOnImport(importlib.abc.MetaPathFinder):
    """Runs a library's registrar right after that library's first import: it finds the
    module's spec with the other finders and wraps its loader's ``exec_module``. It answers
    only for the top-level names it waits for, and removes itself once all have loaded."""

    def __init__(self, pending: dict[str, Callable[[], None]]) -> None:
        self.pending = pending
        self._finding = False

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        registrar = self.pending.get(fullname)
        if registrar is None or self._finding:
            return None
        self._finding = True
        try:  # every other finder (PathFinder, an editable install's own finder)
            spec: importlib.machinery.ModuleSpec | None = None
            for finder in sys.meta_path:
                find = getattr(finder, "find_spec", None)
                if finder is not self and find is not None:
                    spec = find(fullname, path, target)
                    if spec is not None:
                        break
        finally:
            self._finding = False
        loader = None if spec is None else spec.loader
        if spec is None or loader is None or not hasattr(loader, "exec_module"):
            return None
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            self.pending.pop(fullname, None)
            if not self.pending and self in sys.meta_path:
                sys.meta_path.remove(self)
            registrar()

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install() -> None:
    """Register now with every library already imported; hook the others (``import mjenv``
    calls this)."""
    pending = {}
    for name, registrar in _REGISTRARS.items():
        if name in sys.modules:
            registrar()
        else:
            pending[name] = registrar
    if pending and not any(isinstance(f, _RegisterOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _RegisterOnImport(pending))
