"""What the library adapters share (private): flat end-of-hand fields, the shanten shaping
reward, observation re-keying, and an mjenv agent over a masked scoring function.

Nothing here imports an RL library: each adapter module (``tianshou``, ``rllib``, ``torchrl``)
imports its own library and builds on these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from mjenv import actions as A
from mjenv.engine.game import Game
from mjenv.engine.result import HandResult
from mjenv.engine.seat_view import SeatView
from mjenv.mahjong_env import AGENTS, INFO_KEYS, SEAT_OF, MahjongEnv, end_info
from mjenv.shanten import shanten_counts
from mjenv.single_agent import SingleAgentEnv

HAND_FIELDS: tuple[str, ...] = ("hand_over", *INFO_KEYS)
"""The flat info fields the adapters give every agent at every step, all numbers, the same keys
every step (what replay buffers store as arrays): ``hand_over`` 1 on the step a hand ended, else
0 and every other field 0 too; then, for that hand, from the agent's seat: ``hand`` its index in
the episode, ``seat``, ``score`` (the seat's payment), ``won``, ``self_drawn``, ``dealt_in``,
``exhaustive_draw``, ``penalized`` (0 or 1), ``fan_points`` (the winner's total, 0 without a
winner) and ``winner_seat`` (-1 without a winner). The names are those of the env's own
end-of-hand info; the adapters compute them from the hand's result, whatever the env's version
puts in ``infos``."""


def blank_fields() -> dict[str, float]:
    """The :data:`HAND_FIELDS` of a step on which no hand ended (all zero)."""
    return dict.fromkeys(HAND_FIELDS, 0.0)


def hand_fields(result: HandResult, seat: int, hand: int) -> dict[str, float]:
    """The :data:`HAND_FIELDS` of a finished hand from ``seat``'s side: the env's own
    end-of-hand info (:func:`mjenv.mahjong_env.end_info`, one definition of each field) as
    floats, after ``hand_over`` 1."""
    fields = {"hand_over": 1.0}
    for key, value in end_info(result, seat, hand).items():
        fields[key] = float(value)
    return fields


def finished(game: Game | None) -> HandResult | None:
    """The result of ``game`` if that hand is over (the game object a step started from: in a
    match the env has moved on to the next hand's game by the time the step returns)."""
    return game.result if game is not None and game.is_over else None


# ------------------------------------------------------------------ shaping
def _shanten(counts: list[int], n_melds: int) -> int:
    return shanten_counts(counts, n_melds)


def shanten_change(view: SeatView, action: int) -> int:
    """How much ``action`` lowers the shanten of the acting seat's own hand (negative: raises
    it), read from its :class:`SeatView` at the decision: a discard from the 14-form against the
    13-form it leaves (0 for a discard that keeps the best shanten, -1 or less for one that
    spoils the hand); a chow, pung or kong against the hand it makes; Pass and Win 0 (a win is
    paid by the hand's score)."""
    kind, tile = A.decode(action)
    if kind in (A.K_PASS, A.K_WIN):
        return 0
    hand = list(view.hand)
    melds = len(view.melds[view.seat])
    before = _shanten(hand, melds)
    if kind == A.K_DISCARD:
        hand[tile] -= 1
    elif kind == A.K_CHOW:
        middle, _ = A.decode_chow(action)
        hand[tile] += 1
        for t in (middle - 1, middle, middle + 1):
            hand[t] -= 1
        melds += 1
    elif kind == A.K_PUNG:
        hand[tile] -= 2
        melds += 1
    elif kind == A.K_KONG:
        hand[tile] -= 3
        melds += 1
    elif kind == A.K_CONCEALED_KONG:
        hand[tile] -= 4
        melds += 1
    else:  # added kong: the pung becomes a kong, one tile leaves the hand
        hand[tile] -= 1
    return before - _shanten(hand, melds)


class Shaping:
    """The shaping reward ``coef * shanten_change(view, action)`` paid to the acting seat on
    its own step (a discard that spoils the hand costs ``coef`` per shanten, a claim that
    advances it earns ``coef``). 0 switches it off. It steers a learner toward ready hands,
    which is what wins against weak opponents (``greedy`` plays by the same measure); the
    hand's score still decides."""

    def __init__(self, coef: float) -> None:
        if not np.isfinite(coef) or coef < 0:
            raise ValueError(f"shaping must be a finite number >= 0, got {coef!r}")
        self.coef = float(coef)

    def __bool__(self) -> bool:
        return self.coef > 0

    def reward(self, aec: MahjongEnv, agent: str, action: object) -> float:
        """The shaping reward for ``agent`` playing ``action`` now (0 for an illegal one:
        that is penalized by the env)."""
        if not self.coef or not aec.is_legal(agent, action):
            return 0.0
        assert isinstance(action, (int, np.integer))
        return self.coef * shanten_change(aec.view(agent), int(action))


# ------------------------------------------------------------------ AEC form
class AdapterAEC(BaseWrapper):  # type: ignore[misc]
    """An mjenv AEC env (``mjenv.env()`` or ``raw_env()``) with what the library adapters
    change, still a PettingZoo AEC env (``pettingzoo.test.api_test`` passes): ``infos[agent]``
    always holds the same flat numeric :data:`HAND_FIELDS` (zero until a hand ends, then that
    hand's, until the agent next acts); ``rewards`` and the cumulative rewards that ``last()``
    returns add the optional :class:`Shaping` reward to the acting seat; ``seed(s)`` resets
    with ``s``. Subclasses change the observation (:meth:`convert`, :attr:`obs_space`)."""

    def __init__(self, env: AECEnv, shaping: float = 0.0) -> None:
        super().__init__(env)
        raw = env.unwrapped
        if not isinstance(raw, MahjongEnv):
            raise TypeError(f"{type(self).__name__} wraps an mjenv env, got "
                            f"{type(raw).__name__}")
        self.raw: MahjongEnv = raw
        self.shaping = Shaping(shaping)
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.infos: dict[str, dict[str, float]] = {}
        self.obs_space: spaces.Space[Any] = raw.observation_space(AGENTS[0])

    def convert(self, obs: dict[str, np.ndarray]) -> Any:
        """The observation as the library wants it (here: unchanged)."""
        return obs

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.obs_space

    def observe(self, agent: str) -> Any:
        obs = self.env.observe(agent)
        return None if obs is None else self.convert(obs)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        agents = list(self.raw.agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.infos = {a: blank_fields() for a in agents}

    def seed(self, seed: int | None = None) -> None:
        """A reset with ``seed`` (what Tianshou's ``PettingZooEnv.seed`` calls)."""
        self.reset(seed=seed)

    def step(self, action: int | None) -> None:
        raw = self.raw
        agent = raw.agent_selection
        live = not (raw.terminations.get(agent, True) or raw.truncations.get(agent, False))
        bonus = self.shaping.reward(raw, agent, action) if live and self.shaping else 0.0
        game = raw.game
        hand = raw.hand_index
        self.env.step(action)
        agents = raw.agents
        inner = raw.rewards
        rewards = {a: float(inner.get(a, 0.0)) for a in agents}
        cumulative = self._cumulative_rewards
        infos = self.infos
        if live:
            cumulative[agent] = 0.0
            infos[agent] = blank_fields()
            if bonus and agent in rewards:
                rewards[agent] += bonus
            result = finished(game)
            if result is not None:
                for a in agents:
                    infos[a] = hand_fields(result, SEAT_OF[a], hand)
        self.rewards = rewards
        self._cumulative_rewards = {a: cumulative.get(a, 0.0) + rewards[a] for a in agents}
        self.infos = {a: infos.get(a) or blank_fields() for a in agents}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        raw = self.raw
        agent = raw.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                raw.terminations[agent], raw.truncations[agent], self.infos[agent])


# ------------------------------------------------------------------ single-agent form
class KeyedSingleAgentEnv(gymnasium.Wrapper[dict[str, np.ndarray], int,
                                             dict[str, np.ndarray], int]):
    """:class:`~mjenv.single_agent.SingleAgentEnv` with the observation and mask under the
    keys a library looks for (``obs_key``, ``mask_key``), the observation optionally flattened
    to one dimension, the mask in ``mask_dtype``; infos as flat :data:`HAND_FIELDS` (the same
    keys every step); and the :class:`Shaping` reward added to the learner's."""

    def __init__(self, env: SingleAgentEnv, *, obs_key: str, mask_key: str,
                 flatten: bool = False, mask_dtype: Any = np.int8,
                 shaping: float = 0.0) -> None:
        super().__init__(env)
        self.single = env
        self.obs_key = obs_key
        self.mask_key = mask_key
        self.flatten = flatten
        self.mask_dtype = np.dtype(mask_dtype)
        self.shaping = Shaping(shaping)
        inner: Any = env.observation_space
        assert isinstance(inner, spaces.Dict)
        box = inner["observation"]
        assert isinstance(box, spaces.Box)
        if flatten:
            box = spaces.Box(box.low.reshape(-1), box.high.reshape(-1), dtype=box.dtype)
        mask = spaces.Box(0, 1, (A.NUM_ACTIONS,), self.mask_dtype)
        self.observation_space = cast(Any, spaces.Dict({obs_key: box, mask_key: mask}))

    def _obs(self, obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        o = obs["observation"]
        return {self.obs_key: o.reshape(-1) if self.flatten else o,
                self.mask_key: obs["action_mask"].astype(self.mask_dtype, copy=False)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs, _ = self.single.reset(seed=seed, options=options)
        return self._obs(obs), blank_fields()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        single = self.single
        aec = single.aec
        agent = single.agent
        game = aec.game
        hand = aec.hand_index
        bonus = self.shaping.reward(aec, agent, action) if self.shaping else 0.0
        obs, reward, terminated, truncated, _ = single.step(action)
        result = finished(game)
        info = blank_fields() if result is None else hand_fields(result, single.seat, hand)
        return self._obs(obs), reward + bonus, terminated, truncated, info


# ------------------------------------------------------------------ agents for the arena
class MaskedArgmaxAgent:
    """An mjenv agent (mjenv.agent's protocol) that plays the legal action of highest score:
    ``scores(observation, mask)`` gives 235 numbers for one observation (logits or Q-values);
    the adapters build it from a trained model. Deterministic."""

    def __init__(self, scores: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> None:
        self.scores = scores

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            raise ValueError("no legal action: the mask is all zero")
        values = np.asarray(self.scores(observation, action_mask), dtype=np.float64)
        return int(legal[int(np.argmax(values[legal]))])


def agent_names() -> tuple[str, ...]:
    """The AEC env's agent names (``player_0`` .. ``player_3``)."""
    return AGENTS


# ------------------------------------------------------------------ evaluation
def arena_table(spec: str, out: str, deals: int = 200, seed: int = 0,
                baselines: tuple[str, ...] = ("random", "greedy"), workers: int = 1,
                progress: bool = False) -> list[dict[str, Any]]:
    """Play ``spec`` 1-vs-3 against each baseline on ``deals`` duplicate deals in the mjenv
    arena (results under ``out/vs-BASELINE``) and print one line each: the score difference per
    hand with its 95% CI over deals (the arena's acceptance measure), the challenger's own
    score per hand and its win and deal-in rates. Returns the rows."""
    from pathlib import Path

    from mjenv.arena import ArenaConfig, run_arena

    rows: list[dict[str, Any]] = []
    for baseline in baselines:
        config = ArenaConfig(agents=(spec, baseline), deals=deals, seed=seed,
                             names=("learner", baseline))
        results = run_arena(config, Path(out) / f"vs-{baseline}", workers=workers,
                            progress=progress)
        diff = results["score_difference"]
        me = results["agents"]["learner"]
        row = {"baseline": baseline, "deals": deals, "mean": diff["mean"], "low": diff["low"],
               "high": diff["high"], "score": me["mean_score"]["mean"],
               "win_rate": me["win_rate"], "deal_in_rate": me["deal_in_rate"]}
        rows.append(row)
        print(f"vs {baseline:7s} over {deals} deals: score difference {row['mean']:+.2f} "
              f"[{row['low']:+.2f}, {row['high']:+.2f}] per hand; learner {row['score']:+.2f} "
              f"per hand, win {row['win_rate']:.1%}, deal-in {row['deal_in_rate']:.1%}",
              flush=True)
    return rows
