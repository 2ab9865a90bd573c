"""Registration of the environment with PettingZoo's registry (``pettingzoo.make``).

PettingZoo 1.27 keeps a registry filled by ``pettingzoo.register`` calls and has no plugin
discovery, so a package must register itself when imported. Importing PettingZoo costs about
0.3 s (it brings gymnasium and numpy), and ``import mjenv`` must stay light for the fan
calculator's users; so ``import mjenv`` registers only when PettingZoo is already loaded, and
importing ``mjenv.mcr_mahjong_v0`` (or calling :func:`register_envs`) always does::

    import pettingzoo
    import mjenv                       # registers: pettingzoo was imported first
    env = pettingzoo.make("aec", "mjenv/mcr_mahjong_v0", rules="botzone")
"""

from __future__ import annotations

ENV_ID = "mjenv/mcr_mahjong_v0"
"""The registered id (PettingZoo normalizes it to ``mjenv/mcr_mahjong-v0``)."""


def register_envs() -> None:
    """Register :data:`ENV_ID` (the wrapped env) with PettingZoo; harmless to repeat."""
    from pettingzoo import aec_registry, register

    if "mjenv/mcr_mahjong-v0" not in aec_registry:
        register("aec", ENV_ID, entry_point="mjenv.mahjong_env:env")
