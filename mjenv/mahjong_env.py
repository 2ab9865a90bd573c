"""MCR Mahjong as a PettingZoo AEC environment — the env card (mirrored in docs/env.md).

Creation
--------
``mjenv.env(**options)`` is the wrapped environment (illegal actions are penalized, PettingZoo's
order checks), ``mjenv.raw_env(**options)`` the unwrapped one (fast; an illegal action raises);
``from mjenv import mcr_mahjong_v0`` exposes both PettingZoo-style, and
``pettingzoo.make("aec", "mjenv/mcr_mahjong_v0", **options)`` works once ``mjenv.mcr_mahjong_v0``
is imported (or ``pettingzoo`` was imported before ``mjenv``; see mjenv.registration)::

    import mjenv
    env = mjenv.env(rules="mcr", episode="hand")
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(obs["observation"],
                                                               obs["action_mask"])
        env.step(action)

Agents
------
``player_0`` .. ``player_3`` are seats 0..3 counter-clockwise (seat ``p+1`` is ``p``'s next,
下家). Only seats with a real decision are ever selected: the seat to discard (after a draw or a
claim), and in a claim window (after a discard) or a robbing window (after an added kong) each
seat that may do something other than pass, one after the other in counter-clockwise order from
the discarder; no seat sees another's answer (the window resolves after the last answer:
win > kong = pung > chow > pass, ties to the first seat counter-clockwise). A seat whose only
legal action would be Pass is not selected. With ``false_win="penalize"`` the Win bit is set at
every decision a seat is asked (no decisions are added).

Spaces
------
``action_space(agent)``: ``Discrete(235)``:

=========  =====================================================================
ids        meaning
=========  =====================================================================
0          Pass (decline every claim, or the robbery)
1          Win (self-drawn, on a discard, or robbing an added kong)
2-35       Discard tile ``a - 2`` (tile ids 0..33: W1-9, T1-9, B1-9, F1-4, J1-3)
36-98      Chow: ``36 + suit*21 + (middle rank - 2)*3 + (claimed rank - middle rank + 1)``
99-132     Pung the discarded tile ``a - 99``
133-166    Kong the discarded tile ``a - 133`` (exposed kong)
167-200    Concealed kong of tile ``a - 167``
201-234    Added kong: tile ``a - 201`` added to one's exposed pung
=========  =====================================================================

``observation_space(agent)``: a ``Dict`` of ``observation`` (a ``Box`` of the encoder's shape)
and ``action_mask`` (``Box(0, 1, (235,), int8)``), plus ``oracle`` with ``oracle=True``.
``action_mask`` is the agent's legal actions now (all zero when it is not asked). The default
encoder ``mjenv-v1`` gives (86, 34) float32 planes over the 34 tile kinds, every value in
[0, 1], seats relative to the observer (self, next, opposite, previous); it is built only from
the events the seat may see:

==========  ==========================================================================
channels    content (mjenv-v1; every channel is listed in docs/env.md)
==========  ==========================================================================
0-3         own hand as count planes (>= 1 .. >= 4), the drawn tile included
4, 5        the tile just drawn; the tile of the decision at hand
6, 7        seat wind, prevalent wind (one-hot on F1-F4)
8           unseen copies / 4
9-40        melds, 8 planes per relative seat: chow, pung, exposed / added / concealed
            kong, the claimed tiles by supplier (next / opposite / previous)
41-84       discards, 11 planes per relative seat: the last 8 in order, all, claimed,
            the first 6
85          scalars: dealer, flowers, hidden concealed kongs, tiles left (also per seat
            for per-seat walls), the decision kind and the discarder, the Win bit,
            hand over, discard and meld counts
==========  ==========================================================================

Other encoders (``encoder=``): ``ijcai-v1`` (6, 4, 9), the IJCAI competition baseline's layout
(seat wind, prevalent wind, the hand as 4 count planes). ``oracle=True`` adds ``oracle-v1``
(38, 34): every hand, the concealed kongs, the waits, the wall's composition and next tiles —
perfect information for oracle-guided training, read from the game (the one exception to the
no-leak rule). ``mjenv.encoders.describe_channels(name)`` prints any table.

Options
-------
==============  ===============================  ==============================================
option          values (default first)           meaning
==============  ===============================  ==============================================
``rules``       ``"mcr"``, ``"botzone"``         the rule profile (mjenv.engine.rules; botzone:
                                                 the IJCAI judge's variant, rules §1.8)
``episode``     ``"hand"``, ``"match"``          one hand, or a 16-hand match (botzone: 1)
``reward``      ``"score"``, ``"normalized"``,   see Rewards
                ``"win_loss"``
``false_win``   ``"mask"``, ``"penalize"``       Win legal only when it is one; or Win offered
                                                 at every decision (a false one: −30 / +10 ×3)
``encoder``     ``"mjenv-v1"``, ``"ijcai-v1"``   the observation encoder (mjenv.encoders)
``oracle``      ``False``, ``True``              add the ``oracle`` observation key
``render_mode`` ``None``, ``"ansi"``, ``"human"``  draw the table as the selected agent sees it
==============  ===============================  ==============================================

``reset(seed=...)`` reproduces everything: the wall and, for a single hand, the dealer and the
prevalent wind (drawn from the seed; the botzone profile fixes the dealer at seat 0); a match
starts with seat 0 dealing in the East round and rotates (dealer every hand, wind every 4).
``reset(options={"wall": [codes], "dealer": d, "prevalent_wind": w})`` plays a given deal
(single hands): the profile's full tile list as codes, index 0 the head (the first tile dealt),
the last the tail (the first replacement); for the botzone profile the judge's ``walltiles``
order. A wall that is not a permutation of the profile's tiles is refused (ValueError); unknown
option keys are ignored with a warning.

Rewards
-------
Paid to every agent when a hand ends (in a match, after every hand; the episode ends after the
last): ``score`` — the hand's payments (rules §2.3, zero-sum: self-drawn winner +3(8+F), the
others −(8+F); on a discard winner 8·3+F, discarder −(8+F), the others −8; an exhaustive draw 0;
a penalty −30 / +10 ×3); ``normalized`` — the payments / ``NORMALIZED_SCALE`` (100);
``win_loss`` — the sign of the payment: +1 to the winner, −1 to each seat that pays (in MCR
every loser pays), 0 in a draw (a penalty: −1 the offender, +1 the others).

Infos
-----
Empty during play. When a hand ends every agent's info is ``{"result": {...}, "hand": i}`` (``i``
counts the hands of the episode from 0) until that agent next acts: ``result`` has ``winner``
and ``discarder`` (agent names or None; the discarder is the robbed seat for 抢杠和),
``self_drawn``, ``robbed``, ``fans`` (``[{"zh", "en", "points", "count"}]``, the fan
calculator's JSON), ``total`` (flowers included), ``payments`` (``{agent: int}``) and
``penalized`` (the agent penalized, or None). Deterministic: the same seed and actions give the
same infos.

Illegal actions
---------------
``raw_env`` raises ``ValueError`` naming the legal actions and changes nothing. ``env()`` wraps
it in :class:`PenalizeIllegalActions`: an action outside the mask ends the hand with the
profile's penalty on the offender (−30, +10 to each other seat, zero-sum) and a warning. The
step an agent takes after its termination must be ``None``. The unwrapped env's
``is_legal(agent, action)`` and ``penalize_illegal(agent, action)`` are that check and that
penalty, for wrappers of their own (the single-agent env uses them).

A seat's view
-------------
``view(agent)`` (on the unwrapped env: ``env.unwrapped.view(agent)``) is what the agent's seat
knows of the hand now, the :class:`~mjenv.engine.seat_view.SeatView` its observation is encoded
from: its hand and drawn tile, every seat's melds, pools, river and flowers, the unseen counts,
the tiles left, the open claim and, at the end, the result (docs/engine.md, "What a seat
sees"). It holds only what the seat may see; it is the env's own object, caught up on every
call: read it, and ``clone()`` it to keep it. ``render()`` draws the selected agent's.

Version history
---------------
``mcr_mahjong_v0`` (mjenv 0.1.0): the first version; encoders ``mjenv-v1``, ``ijcai-v1``,
``oracle-v1``.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper, OrderEnforcingWrapper

from mjenv import actions as A
from mjenv.encoders import make_encoder, make_oracle
from mjenv.engine.game import Game
from mjenv.engine.match import Match
from mjenv.engine.result import HandResult
from mjenv.engine.rules import PROFILES, RuleConfig
from mjenv.engine.seat_view import SeatView
from mjenv.fans.table import FAN_BY_ZH

AGENTS: tuple[str, str, str, str] = ("player_0", "player_1", "player_2", "player_3")
SEAT_OF: dict[str, int] = {a: s for s, a in enumerate(AGENTS)}
EPISODES = ("hand", "match")
REWARDS = ("score", "normalized", "win_loss")
RENDER_MODES = ("ansi", "human")
NORMALIZED_SCALE = 100.0
"""``reward="normalized"`` divides the payments by this (a minimum self-drawn win is +48)."""
RESET_OPTIONS = ("wall", "dealer", "prevalent_wind")


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")
    return value


def result_info(result: HandResult) -> dict[str, Any]:
    """A hand's result as the env's ``infos`` carry it (plain JSON types, agents by name)."""
    def agent(seat: int | None) -> str | None:
        return None if seat is None else AGENTS[seat]

    fans = []
    for zh, count in result.fans:
        fan = FAN_BY_ZH[zh]
        fans.append({"zh": zh, "en": fan.en, "points": fan.points, "count": count})
    return {
        "winner": agent(result.winner),
        "discarder": agent(result.from_seat),
        "self_drawn": result.self_drawn,
        "robbed": result.robbed,
        "fans": fans,
        "total": result.fan_total,
        "payments": {AGENTS[s]: result.payments[s] for s in range(4)},
        "penalized": agent(result.penalized),
    }


class MahjongEnv(AECEnv[str, dict[str, np.ndarray], int | None]):
    """The unwrapped environment (see the module docstring); :func:`raw_env` makes one."""

    metadata = {"name": "mcr_mahjong_v0", "render_modes": list(RENDER_MODES),
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, rules: str = "mcr", episode: str = "hand", reward: str = "score",
                 false_win: str = "mask", encoder: str = "mjenv-v1", oracle: bool = False,
                 render_mode: str | None = None) -> None:
        super().__init__()
        _choice("rules", rules, tuple(PROFILES))
        self.episode = _choice("episode", episode, EPISODES)
        self.reward_mode = _choice("reward", reward, REWARDS)
        if not isinstance(oracle, bool):
            raise ValueError(f"oracle must be True or False, got {oracle!r}")
        if render_mode is not None:
            _choice("render_mode", render_mode, RENDER_MODES)
        self.rules: RuleConfig = replace(PROFILES[rules], false_win=false_win)
        self.encoder = make_encoder(encoder, self.rules)
        self.oracle_encoder = make_oracle("oracle-v1", self.rules) if oracle else None
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(self.encoder.low, self.encoder.high, self.encoder.shape,
                                      self.encoder.dtype),
            "action_mask": spaces.Box(0, 1, (A.NUM_ACTIONS,), np.int8),
        }
        if self.oracle_encoder is not None:
            o = self.oracle_encoder
            obs["oracle"] = spaces.Box(o.low, o.high, o.shape, o.dtype)
        self.observation_spaces = {a: spaces.Dict(obs) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(A.NUM_ACTIONS) for a in AGENTS}
        self.game: Game | None = None
        self.match: Match | None = None
        self.hand_index = 0
        self._views: list[SeatView] = []

    # ================================================================ PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        options = dict(options or {})
        unknown = sorted(set(options) - set(RESET_OPTIONS), key=str)
        if unknown:  # PettingZoo's api_test passes options of its own: warn, do not fail
            warnings.warn(f"ignoring unknown reset options {unknown}; known: "
                          f"{list(RESET_OPTIONS)}", stacklevel=2)
            options = {k: v for k, v in options.items() if k in RESET_OPTIONS}
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        if self.episode == "match":
            if options:
                raise ValueError("reset options (a given wall, dealer or wind) play a single "
                                 "hand: use episode='hand'")
            self.match = Match(self.rules, seed=seed)
            game = self.match.game
        else:
            self.match = None
            game = self._new_hand(seed, options)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.hand_index = 0
        self._start(game)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        assert game is not None, "call reset() first"
        mask = self.action_mask(agent)
        obs = {"observation": self.encoder.encode(self.view(agent), mask), "action_mask": mask}
        if self.oracle_encoder is not None:
            obs["oracle"] = self.oracle_encoder.encode(game, SEAT_OF[agent])
        return obs

    def action_mask(self, agent: str) -> np.ndarray:
        """The agent's legal actions now as 235 int8 (all zero when it is not asked)."""
        mask = bytearray(A.NUM_ACTIONS)  # ~3x faster than np.zeros + mask[legal] = 1
        game = self.game
        if game is not None and not self.terminations.get(agent, True):
            for a in game.legal(SEAT_OF[agent]):  # the game's own list: no copy
                mask[a] = 1
        return np.frombuffer(mask, dtype=np.int8)  # writable: it views its own bytearray

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        if action is None:
            raise ValueError(f"{agent} must act (None is only for terminated agents); "
                             f"legal: {game.legal_actions(SEAT_OF[agent])}")
        game.step(SEAT_OF[agent], action)  # ValueError naming the legal ones; nothing changes
        self._cumulative_rewards[agent] = 0.0
        if self.infos[agent]:
            self.infos[agent] = {}
        self._advance()

    def is_legal(self, agent: str, action: object) -> bool:
        """Whether ``action`` is one of ``agent``'s legal actions now: an action id (an int, not
        a bool) set in its mask."""
        game = self.game
        # the game's legal list, not a 235-entry mask built for one lookup
        return isinstance(action, (int, np.integer)) and not isinstance(action, bool) \
            and game is not None and not self.terminations.get(agent, True) \
            and int(action) in game.legal(SEAT_OF[agent])

    def penalize(self, agent: str) -> None:
        """End the current hand with the profile's penalty on ``agent`` (−30, +10 to each
        other): what :meth:`penalize_illegal` does with an illegal action."""
        game = self.game
        if game is None or self.terminations.get(agent, True):
            raise ValueError(f"{agent} cannot be penalized now")
        game.penalize(SEAT_OF[agent])
        self._cumulative_rewards[agent] = 0.0
        self._advance()

    def penalize_illegal(self, agent: str, action: object, *, who: str | None = None,
                         stacklevel: int = 1) -> None:
        """The one way an illegal ``action`` of ``agent`` is punished instead of raising (by
        :class:`PenalizeIllegalActions` and the single-agent wrapper): a warning naming the
        offender (``who``, default the agent's name), then :meth:`penalize`. ``stacklevel`` is
        the caller's, as for :func:`warnings.warn`."""
        rules = self.rules
        warnings.warn(f"{who or agent} played the illegal action {action!r}: the hand ends "
                      f"with the penalty ({rules.penalty_offender} / "
                      f"+{rules.penalty_others} each other seat)", stacklevel=stacklevel + 1)
        self.penalize(agent)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from mjenv.render import render_view

        text = render_view(self.view(self.agent_selection))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ================================================================ internals
    def _new_hand(self, seed: int, options: dict[str, Any]) -> Game:
        rng = np.random.default_rng(seed)
        dealer = int(rng.integers(4))
        wind = int(rng.integers(4))
        wall_seed = int(rng.integers(2**63))
        if self.rules.fixed_dealer is not None:
            dealer = self.rules.fixed_dealer
        dealer = options.get("dealer", dealer)
        wind = options.get("prevalent_wind", wind)
        wall = options.get("wall")
        if wall is not None and (isinstance(wall, str) or not hasattr(wall, "__len__")):
            raise ValueError("options['wall'] must be a list of tile codes")
        return Game(self.rules, seed=wall_seed if wall is None else seed, wall=wall,
                    dealer=dealer, prevalent_wind=wind)

    def _start(self, game: Game) -> None:
        self.game = game
        n = self.rules.num_tiles
        self._views = [SeatView(s, dealer=game.dealer, prevalent_wind=game.prevalent_wind,
                                num_tiles=n) for s in range(4)]
        self.agent_selection = AGENTS[game.to_act()[0]]

    def view(self, agent: str) -> SeatView:
        """What ``agent``'s seat knows of the current hand now: its
        :class:`~mjenv.engine.seat_view.SeatView`, folded from the events it may see (the
        observation is encoded from it). The env's own object, caught up on every call:
        read it, ``clone()`` it to keep it."""
        game = self.game
        if game is None:
            raise ValueError("call reset() first")
        view = self._views[SEAT_OF[agent]]
        if view.num_events < len(game.events):
            view.extend(game.events[view.num_events:])
        return view

    def _advance(self) -> None:
        """After a step: select the next agent, or pay and end (or move on to the next hand)."""
        game = self.game
        assert game is not None
        rewards = self.rewards
        for a in AGENTS:
            rewards[a] = 0.0
        if not game.is_over:
            self.agent_selection = AGENTS[game.to_act()[0]]
            return
        result = game.result
        assert result is not None
        info = {"result": result_info(result), "hand": self.hand_index}
        for s, a in enumerate(AGENTS):
            rewards[a] = self._reward(result.payments[s])
            self._cumulative_rewards[a] += rewards[a]
            self.infos[a] = dict(info)
        match = self.match
        if match is not None:
            match.next_hand()
            if not match.is_over:
                self.hand_index += 1
                self._start(match.game)
                return
        for a in AGENTS:
            self.terminations[a] = True

    def _reward(self, payment: int) -> float:
        if self.reward_mode == "score":
            return float(payment)
        if self.reward_mode == "normalized":
            return payment / NORMALIZED_SCALE
        return float((payment > 0) - (payment < 0))


LastTuple = tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]
"""What ``last()`` returns: observation, cumulative reward, termination, truncation, info."""


class PenalizeIllegalActions(BaseWrapper[str, dict[str, np.ndarray], int | None]):
    """An illegal action (outside the mask, or not an action id) ends the hand with the
    profile's zero-sum penalty on the offender (−30, +10 to each other seat) and warns, instead
    of raising: for arenas and training loops that must never stop."""

    def step(self, action: int | None) -> None:
        env = self.unwrapped
        assert isinstance(env, MahjongEnv)
        agent = env.agent_selection
        if action is not None and not env.terminations.get(agent, True) \
                and not env.is_legal(agent, action):
            env.penalize_illegal(agent, action, stacklevel=2)
            return
        self.env.step(action)

    def last(self, observe: bool = True) -> LastTuple:
        # AECEnv.last reads five attributes, each through BaseWrapper.__getattr__: ask the
        # wrapped env's own last() instead (the same values)
        out: LastTuple = self.env.last(observe)
        return out


class _OrderEnforcing(OrderEnforcingWrapper[str, dict[str, np.ndarray], int | None]):
    """PettingZoo's order checks, with a direct ``last()`` (see PenalizeIllegalActions.last)."""

    def last(self, observe: bool = True) -> LastTuple:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        out: LastTuple = self.env.last(observe)
        return out


def raw_env(**options: Any) -> MahjongEnv:
    """The unwrapped environment (fast; an illegal action raises ValueError)."""
    return MahjongEnv(**options)


def env(**options: Any) -> AECEnv[str, dict[str, np.ndarray], int | None]:
    """The wrapped environment: illegal actions are penalized, and the usual order checks."""
    return _OrderEnforcing(PenalizeIllegalActions(raw_env(**options)))
