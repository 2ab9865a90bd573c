"""A single-agent Gymnasium view of the game: one learner seat against fixed opponent agents.

>>> from mjenv.single_agent import SingleAgentEnv
>>> env = SingleAgentEnv(opponents="random", seat=None)      # doctest: +SKIP
>>> obs, info = env.reset(seed=0)                            # doctest: +SKIP
>>> obs, reward, terminated, truncated, info = env.step(action)   # doctest: +SKIP

Each ``step`` plays the learner's action, then the opponents' decisions until the learner must
decide again or the episode ends. The reward is everything the learner's seat received in
between (hand payments, in the env's ``reward`` mode). ``observation_space`` is the AEC env's
``Dict(observation, action_mask[, oracle])``; mask the policy with ``obs["action_mask"]``.
A deal that ends before the learner's first decision (an opponent wins at once) is dealt again
from the same seed sequence. ``seat=None`` puts the learner in a seat drawn from the reset seed
(so it plays every seat over many episodes); an int fixes it. Opponents are agent specs
(mjenv.agent) or agent objects: one for all three seats, or a list of three (for the seats
after the learner's, in order).

``illegal="penalize"`` (the default, as ``mjenv.env()``): a learner's action outside the mask
ends the hand with the profile's penalty on the learner (−30, +10 to each other seat) and a
warning, so that trainers without masking (and Gymnasium's ``check_env``) never stop;
``illegal="raise"``: ValueError naming the legal actions, nothing changes. ``reset(seed=s)``
followed by ``reset()`` calls is reproducible (every seed is drawn from ``np_random``). In a
match, what the learner received before its first decision comes with its first step's reward.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from mjenv.agent import Agent, make_agent
from mjenv.mahjong_env import AGENTS, MahjongEnv

ILLEGAL = ("penalize", "raise")


class SingleAgentEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """See the module docstring. ``env_options`` go to :class:`~mjenv.mahjong_env.MahjongEnv`
    (``rules``, ``episode``, ``reward``, ``false_win``, ``encoder``, ``oracle``)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, opponents: str | Agent | Sequence[str | Agent] = "random",
                 seat: int | None = None, render_mode: str | None = None,
                 illegal: str = "penalize", **env_options: Any) -> None:
        if seat is not None and (isinstance(seat, bool)
                                 or not isinstance(seat, (int, np.integer))
                                 or seat not in range(4)):
            raise ValueError(f"seat must be None or 0..3, got {seat!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {list(ILLEGAL)}, got {illegal!r}")
        if isinstance(opponents, (str, Agent)):
            opponents = [opponents] * 3
        try:
            count = len(opponents)
        except TypeError:
            raise ValueError("opponents: one agent spec or agent, or a list of three; got "
                             f"{opponents!r}") from None
        if count != 3:
            raise ValueError(f"give one opponent (a spec or an agent) or three, got {count}")
        for o in opponents:
            if not isinstance(o, (str, Agent)):
                raise ValueError(f"an opponent is an agent spec or an agent (with reset and "
                                 f"act), got {o!r}")
        self.opponents: list[Agent] = [make_agent(o) if isinstance(o, str) else o
                                       for o in opponents]
        self.aec = MahjongEnv(render_mode=render_mode, **env_options)
        self.illegal = illegal
        self.fixed_seat = None if seat is None else int(seat)
        self.seat = 0 if seat is None else int(seat)
        self._received = 0.0
        """The learner's rewards since its last decision (the env's ``rewards`` after each
        step, summed here: PettingZoo keeps its own sum private)."""
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(AGENTS[0])
        self.action_space = self.aec.action_space(AGENTS[0])

    @property
    def agent(self) -> str:
        return AGENTS[self.seat]

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                               dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random  # seeded by ``seed``, else continuing the previous stream
        if self.fixed_seat is None:
            self.seat = int(rng.integers(4))
        for _ in range(100):  # a deal the learner never gets to play is dealt again
            self.aec.reset(seed=int(rng.integers(2**63)), options=options)
            self._received = 0.0
            for i, opponent in enumerate(self.opponents):
                opponent.reset((self.seat + 1 + i) % 4, int(rng.integers(2**63)))
            if not self._play_opponents():
                # (in a match, what the learner received so far comes with its first step)
                return self.aec.observe(self.agent), self._info()
            if options:
                raise ValueError("the given deal ends before the learner has a decision")
        raise RuntimeError("no deal gave the learner a decision in 100 tries")

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        aec = self.aec
        if aec.game is None:
            raise ValueError("call reset() before step()")
        if aec.terminations[self.agent] or aec.agent_selection != self.agent:
            raise ValueError("the episode is over: call reset()")
        reward = self._received
        if self.illegal == "raise" or aec.is_legal(self.agent, action):
            aec.step(int(action))  # ValueError naming the legal actions if illegal
        else:
            aec.penalize_illegal(self.agent, action, who=f"the learner ({self.agent})",
                                 stacklevel=2)
        self._received = aec.rewards[self.agent]
        done = self._play_opponents()
        reward += self._received
        self._received = 0.0
        return aec.observe(self.agent), float(reward), done, False, self._info()

    def _play_opponents(self) -> bool:
        """Opponents act until the learner must decide (False) or the episode ends (True)."""
        aec = self.aec
        me = self.agent
        while not aec.terminations[me]:
            current = aec.agent_selection
            if current == me:
                return False
            seat = AGENTS.index(current)
            opponent = self.opponents[(seat - self.seat - 1) % 4]
            obs = aec.observe(current)
            aec.step(opponent.act(obs["observation"], obs["action_mask"]))
            self._received += aec.rewards[me]
        return True

    def _info(self) -> dict[str, Any]:
        return dict(self.aec.infos.get(self.agent, {}))

    def render(self) -> str | None:
        """The table as the learner's seat sees it (``render_mode`` ``"ansi"``: the text;
        ``"human"``: printed)."""
        aec = self.aec
        if aec.game is None:
            return None
        selected = aec.agent_selection  # after the end it may be an opponent's seat
        aec.agent_selection = self.agent
        try:
            return aec.render()
        finally:
            aec.agent_selection = selected

    def close(self) -> None:
        self.aec.close()
