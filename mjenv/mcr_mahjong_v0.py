"""``mcr_mahjong_v0``: the environment, PettingZoo-style (``from mjenv import mcr_mahjong_v0``).

``mcr_mahjong_v0.env(**options)`` is the wrapped environment, ``mcr_mahjong_v0.raw_env`` the
unwrapped one, ``mcr_mahjong_v0.parallel_env`` the parallel form (mjenv.mahjong_env has the env
card). Importing this module registers the id ``mjenv/mcr_mahjong_v0`` for
``pettingzoo.make("aec" or "parallel", "mjenv/mcr_mahjong_v0", **options)`` and the Gymnasium
ids (mjenv.registration).
"""

from __future__ import annotations

from mjenv.mahjong_env import MahjongEnv, MahjongParallelEnv, env, parallel_env, raw_env
from mjenv.registration import register_envs

register_envs()

__all__ = ["MahjongEnv", "MahjongParallelEnv", "env", "parallel_env", "raw_env"]
