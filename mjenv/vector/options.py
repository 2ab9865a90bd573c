"""The options of a batched environment: ``raw_env``'s, checked by ``raw_env`` itself.

Why here: a batch and its worker processes must build the same games and encoders from the
same options, so they travel as one small picklable value. Validation is delegated to
:class:`~mjenv.mahjong_env.MahjongEnv` (one is built once, in the parent): the option names,
values and error messages are exactly ``raw_env``'s, and so are the observation and action
spaces.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from gymnasium import spaces

from mjenv.actions import NUM_ACTIONS
from mjenv.encoders import DEFAULT_ENCODER, DEFAULT_ORACLE, make_encoder, make_oracle
from mjenv.engine.rules import PROFILES, RuleConfig
from mjenv.mahjong_env import AGENTS, MahjongEnv

ILLEGAL = ("raise", "penalize")
"""What an action outside the mask does: ``raise`` (ValueError, nothing changes: ``raw_env``)
or ``penalize`` (the hand ends with the profile's penalty on the seat, and a warning:
``mjenv.env()``)."""


@dataclass(frozen=True)
class EnvOptions:
    """``raw_env``'s options (``render_mode`` aside: a batch has no table to draw)."""

    rules: str = "mcr"
    episode: str = "hand"
    reward: str = "score"
    false_win: str = "mask"
    encoder: str = DEFAULT_ENCODER
    oracle: bool = False

    def check(self) -> MahjongEnv:
        """Validate the options as ``raw_env`` does (its ValueError); returns the env built."""
        return MahjongEnv(rules=self.rules, episode=self.episode, reward=self.reward,
                          false_win=self.false_win, encoder=self.encoder, oracle=self.oracle)

    @property
    def rule_config(self) -> RuleConfig:
        """The engine's rules: the profile with the ``false_win`` mode (as ``raw_env``)."""
        return replace(PROFILES[self.rules], false_win=self.false_win)

    def observation_shape(self, encoder: str | None = None) -> tuple[int, ...]:
        """The shape of one observation of ``encoder`` (default: this env's)."""
        return make_encoder(encoder or self.encoder, self.rule_config).shape

    def oracle_shape(self) -> tuple[int, ...]:
        """The shape of the ``oracle`` planes (``oracle=True``)."""
        return make_oracle(DEFAULT_ORACLE, self.rule_config).shape


def env_options(options: dict[str, Any]) -> EnvOptions:
    """:class:`EnvOptions` from keyword options, refusing names ``raw_env`` does not take
    here (``render_mode`` included) with the known ones."""
    known = set(EnvOptions.__dataclass_fields__)
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(f"unknown option(s) {unknown}: a batch takes {sorted(known)}")
    return EnvOptions(**options)


def check_illegal(illegal: str) -> str:
    if illegal not in ILLEGAL:
        raise ValueError(f"illegal must be one of {list(ILLEGAL)}, got {illegal!r}")
    return illegal


OBSERVATION_DTYPES = ("float32", "uint8")
"""What a batch's observation rows hold: ``raw_env``'s float32 observation, or the encoder's
integer counts (uint8), of which the float32 observation is a fixed scaling
(:meth:`~mjenv.vector.env.VectorMahjongEnv.decode_observation`)."""


def check_observation_dtype(value: object, options: EnvOptions) -> str:
    """``value`` if it is one of :data:`OBSERVATION_DTYPES` that the options' encoder can give
    (counts need an encoder whose every cell is a count times a scale); ValueError else."""
    if value not in OBSERVATION_DTYPES:
        raise ValueError(f"observation_dtype must be one of {list(OBSERVATION_DTYPES)}, got "
                         f"{value!r}")
    if value == "uint8":
        encoder = make_encoder(options.encoder, options.rule_config)
        if encoder.count_channels != encoder.shape[0]:
            raise ValueError(f"observation_dtype='uint8' needs an encoder whose cells are "
                             f"counts; {encoder.name} has none: use 'float32'")
    return str(value)


def single_spaces(env: MahjongEnv, observation_dtype: str = "float32",
                  ) -> tuple[spaces.Dict, spaces.Discrete]:
    """One game's observation space (``raw_env``'s ``Dict``, its ``observation`` a uint8
    ``Box`` of counts with ``observation_dtype="uint8"``) and action space."""
    obs = env.observation_space(AGENTS[0])
    assert isinstance(obs, spaces.Dict)
    if observation_dtype == "uint8":
        shape = obs["observation"].shape
        assert shape is not None
        obs = spaces.Dict({name: spaces.Box(0, 255, shape, np.uint8)
                           if name == "observation" else space
                           for name, space in obs.spaces.items()})
    return obs, spaces.Discrete(NUM_ACTIONS)
