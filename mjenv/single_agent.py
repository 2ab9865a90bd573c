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
after the learner's, in order). An opponent with ``uses_observation = False`` (one that reads
only the mask, as a random player) is given an all-zero observation, which saves encoding one.

``illegal="penalize"`` (the default, as ``mjenv.env()``): a learner's action outside the mask
(or not an action id: a bool, a float) ends the hand with the profile's penalty on the learner
(−30, +10 to each other seat) and a warning, so that trainers without masking (and Gymnasium's
``check_env``) never stop; ``illegal="raise"``: ValueError naming the legal actions, nothing
changes. An action id is an int, a numpy integer or a 0-d integer array (what a policy's
``predict`` returns), never a bool. ``reset(seed=s)`` followed by ``reset()`` calls is
reproducible (every seed is drawn from ``np_random``). In a match, what the learner received
before its first decision comes with its first step's reward.

Conventions of the libraries: :meth:`SingleAgentEnv.action_masks` is the mask where
sb3-contrib's ``MaskablePPO`` looks for it; the info of the step that ends a hand holds flat
numbers (``score``, ``won``, ``self_drawn``, ``dealt_in``, ``fan_points``, ... : the env card's
Infos), the full result is :meth:`SingleAgentEnv.hand_result`; ``render_mode="human"`` prints
the learner's table after ``reset`` and every ``step`` (Gymnasium's convention), ``"ansi"``
returns it from ``render()``; ``"rgb_array"`` (what SB3's ``make_vec_env`` asks for unless told
otherwise) is accepted and draws nothing, there being no image.
``gymnasium.make("mjenv/MCRMahjong-v0")`` makes one (mjenv.registration).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from mjenv.agent import Agent, make_agent
from mjenv.mahjong_env import (
    AGENTS,
    ILLEGAL,
    RENDER_MODES,
    MahjongEnv,
    ResetNeeded,
    action_id,
    check_seed,
)


class SingleAgentEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """See the module docstring. ``env_options`` go to :class:`~mjenv.mahjong_env.MahjongEnv`
    (``rules``, ``episode``, ``reward``, ``false_win``, ``encoder``, ``oracle``)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, opponents: str | Agent | Sequence[str | Agent] = "random",
                 seat: int | None = None, render_mode: str | None = None,
                 illegal: str = "penalize", **env_options: Any) -> None:
        if seat is not None and (isinstance(seat, bool)
                                 or not isinstance(seat, (int, np.integer))
                                 or seat not in range(4)):
            raise ValueError(f"seat must be None or 0..3, got {seat!r}")
        if not isinstance(illegal, str) or illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {list(ILLEGAL)}, got {illegal!r}")
        if render_mode is not None and render_mode not in (*RENDER_MODES, "rgb_array"):
            raise ValueError(f"render_mode must be None or one of {list(RENDER_MODES)}, got "
                             f"{render_mode!r}")
        if render_mode == "rgb_array":  # SB3's make_vec_env asks for it by default: no image
            render_mode = None
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
        # the AEC env draws text only: in human mode it would print every opponent's move
        # from that opponent's seat; this env prints the learner's table itself
        self.aec = MahjongEnv(render_mode=None if render_mode is None else "ansi",
                              **env_options)
        self.illegal = illegal
        self.fixed_seat = None if seat is None else int(seat)
        self.seat = 0 if seat is None else int(seat)
        self._received = 0.0
        """The learner's rewards since its last decision (the env's ``rewards`` after each
        step, summed here: PettingZoo keeps its own sum private)."""
        self.render_mode = render_mode
        self._blind = [getattr(o, "uses_observation", True) is False for o in self.opponents]
        self._no_observation = np.zeros(self.aec.encoder.shape, self.aec.encoder.dtype)
        self._no_observation.flags.writeable = False
        self.observation_space = self.aec.observation_space(AGENTS[0])
        self.action_space = self.aec.action_space(AGENTS[0])

    @property
    def agent(self) -> str:
        return AGENTS[self.seat]

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                               dict[str, Any]]:
        super().reset(seed=check_seed(seed))
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
                if self.render_mode == "human":
                    self._show()
                return self.aec.observe(self.agent), self._info()
            if options:
                raise ValueError("the given deal ends before the learner has a decision")
        raise RuntimeError("no deal gave the learner a decision in 100 tries")

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        aec = self.aec
        if aec.game is None:
            raise ResetNeeded("call reset() before step()")
        if aec.terminations[self.agent] or aec.agent_selection != self.agent:
            raise ResetNeeded("the episode is over: call reset()")
        reward = self._received
        if self.illegal == "raise" or aec.is_legal(self.agent, action):
            aec.step(action_id(action))  # ValueError naming the legal actions if illegal
        else:
            aec.penalize_illegal(self.agent, action, who=f"the learner ({self.agent})",
                                 stacklevel=2)
        self._received = aec.rewards[self.agent]
        done = self._play_opponents()
        reward += self._received
        self._received = 0.0
        if self.render_mode == "human":
            self._show()
        return aec.observe(self.agent), float(reward), done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, 235 bools (all False once the episode is over):
        the method sb3-contrib's ``MaskablePPO`` calls (``get_action_masks``). A view of the
        int8 mask, not a copy."""
        return self.aec.action_mask(self.agent).view(np.bool_)

    def hand_result(self, hand: int = -1) -> dict[str, Any]:
        """The full result of hand ``hand`` of the episode (default the last ended): fans,
        winner and discarder, payments (:meth:`mjenv.mahjong_env.MahjongEnv.hand_result`); the
        step's info holds its flat numbers."""
        return self.aec.hand_result(hand)

    def _play_opponents(self) -> bool:
        """Opponents act until the learner must decide (False) or the episode ends (True). An
        opponent whose ``uses_observation`` is False (a random player) gets its mask and a
        shared all-zero array instead of an encoded observation: encoding every opponent
        decision was the largest cost of this env inside an SB3 loop against random players."""
        aec = self.aec
        me = self.agent
        blind = self._blind
        while not aec.terminations[me]:
            current = aec.agent_selection
            if current == me:
                return False
            i = (AGENTS.index(current) - self.seat - 1) % 4
            if blind[i]:
                action = self.opponents[i].act(self._no_observation, aec.action_mask(current))
            else:
                obs = aec.observe(current)
                action = self.opponents[i].act(obs["observation"], obs["action_mask"])
            aec.step(action)
            self._received += aec.rewards[me]
        return True

    def _info(self) -> dict[str, Any]:
        return dict(self.aec.infos.get(self.agent, {}))

    def render(self) -> str | None:
        """The table as the learner's seat sees it: ``render_mode="ansi"`` returns the text;
        ``"human"`` prints it (the env also prints it by itself after ``reset`` and every
        ``step``) and returns None; None before ``reset`` or without a render mode."""
        if self.render_mode is None or self.aec.game is None:
            return None
        if self.render_mode == "human":
            self._show()
            return None
        return self._text()

    def _text(self) -> str:
        return self.aec.table(self.agent)

    def _show(self) -> None:
        print(self._text(), flush=True)

    def close(self) -> None:
        self.aec.close()
