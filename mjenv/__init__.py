"""mjenv: a reinforcement-learning environment for Chinese Official Mahjong (MCR, 国标麻将).

The package is layered (see ``docs/`` and the architecture notes): ``mjenv.tiles`` (tile ids,
codes, glyphs, compact notation) -> ``mjenv.melds`` -> ``mjenv.decompose`` (win detection,
waiting tiles) -> ``mjenv.fans`` (the fan calculator) and ``mjenv.shanten`` -> ``mjenv.analysis``
(scored waits, best discards) -> ``mjenv.engine`` (one hand, a match). ``mjenv.cli`` is the
``mjenv`` command.

The environment: ``mjenv.env(**options)`` (wrapped) and ``mjenv.raw_env(**options)`` (the
PettingZoo AEC env of ``mjenv.mahjong_env``, whose docstring is the env card),
``mjenv.parallel_env(**options)`` (the parallel form: every seat with a decision acts at once);
also ``mjenv.mcr_mahjong_v0``, PettingZoo-style. ``mjenv.single_agent.SingleAgentEnv`` is the
Gymnasium form (one learner against fixed opponents), and ``mjenv.integrations`` holds the
adapters for RL libraries.

``import mjenv`` is kept light: nothing heavy (numpy, PettingZoo, Gymnasium, the fan tables)
loads until it is used. ``mjenv.calculate``, ``mjenv.env``, ``mjenv.raw_env`` and
``mjenv.parallel_env`` are lazy aliases. ``import mjenv`` registers ``mjenv/mcr_mahjong_v0``
for ``pettingzoo.make`` and ``mjenv/MCRMahjong-v0`` (and ``mjenv/BotzoneMahjong-v0``) for
``gymnasium.make``: at once with a library already imported, else the moment it is imported
(see mjenv.registration).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mjenv.registration import install as _install_registration

__version__ = "0.2.0"

__all__ = ["__version__", "calculate", "env", "parallel_env", "raw_env"]

if TYPE_CHECKING:  # only light modules here: mypyc's build type-checks what this imports
    from mjenv.fans import calculate


def __getattr__(name: str) -> Any:
    if name == "calculate":
        from mjenv.fans import calculate

        return calculate
    if name in ("env", "raw_env", "parallel_env"):
        # imported by name so that type checkers (and mypyc's build, which type-checks what
        # the compiled modules' package imports before numpy is installed) do not follow it
        import importlib

        return getattr(importlib.import_module("mjenv.mahjong_env"), name)
    raise AttributeError(f"module 'mjenv' has no attribute {name!r}")


_install_registration()
