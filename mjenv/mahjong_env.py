"""MCR Mahjong as a PettingZoo AEC environment — the env card (mirrored in docs/env.md).

Creation
--------
``mjenv.env(**options)`` is the wrapped environment (illegal actions are penalized, PettingZoo's
order checks), ``mjenv.raw_env(**options)`` the unwrapped one (fast; an illegal action raises),
``mjenv.parallel_env(**options)`` the parallel form (see Parallel form);
``from mjenv import mcr_mahjong_v0`` exposes the three PettingZoo-style, and ``import mjenv``
registers ``pettingzoo.make("aec" | "parallel", "mjenv/mcr_mahjong_v0", **options)`` and the
Gymnasium ids ``gymnasium.make("mjenv/MCRMahjong-v0")`` / ``"mjenv/BotzoneMahjong-v0"`` (the
single-agent env of mjenv.single_agent against ``greedy`` opponents by default), in whichever
order the libraries are imported (mjenv.registration)::

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
``render_mode`` ``None``, ``"ansi"``, ``"human"``  the table, as Rendering says
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
Empty during play. When a hand ends every agent's info holds flat numbers (ints and bools, so
that replay buffers store them as arrays) until that agent next acts: ``hand`` (the hand's index
in the episode, from 0), ``seat``, ``score`` (the agent's payment, whatever the reward mode),
``won``, ``self_drawn`` (won by its own draw), ``dealt_in`` (discarded the winning tile, or was
robbed), ``fan_points`` (the winning hand's total, flowers included; 0 without a winner),
``exhaustive_draw``, ``penalized`` (this agent) and ``winner_seat`` (-1 without a winner).
The full result is ``env.unwrapped.hand_result(hand=-1)``: ``winner`` and ``discarder`` (agent
names or None; the discarder is the robbed seat for 抢杠和), ``self_drawn``, ``robbed``,
``fans`` (``[{"zh", "en", "points", "count"}]``, the fan calculator's JSON), ``total``,
``payments`` (``{agent: int}``) and ``penalized`` (the agent penalized, or None), for any hand
of the episode that has ended. Deterministic: the same seed and actions give the same infos.

Global state
------------
``state()`` is the whole table for a centralised critic (MAPPO-style training), a new float32
array in ``state_space`` = ``Box(0, 1, (382, 34))``: rows ``86 s`` .. ``86 s + 85`` are seat
``s``'s ``mjenv-v1`` observation (exactly what ``observe("player_s")["observation"]`` is with
the default encoder: its hand, every public fact, the decision it faces), rows 344-381 the
``oracle-v1`` planes from seat 0 (every hand, the concealed kongs, the waits, the wall). Every
seat's observation, with any encoder, and its oracle are functions of it (tested). It has one
layout whatever ``encoder`` is; valid from ``reset()`` on, after the end too.

Parallel form
-------------
``mjenv.parallel_env(**options)`` (:class:`MahjongParallelEnv`) is a PettingZoo ``ParallelEnv``:
at each ``step(actions)`` the seats with a decision act together, the one seat to discard or
every seat of an open claim or robbing window (``deciding``). A claim window is a simultaneous
decision (no seat sees another's answer), so this is the same game as the AEC env (tested
event for event). The actions of seats not asked are ignored (PettingZoo's
``parallel_api_test`` sends the sample of an all-zero mask, 0). Every step returns all four
observations, rewards, terminations, truncations and infos; the agents end together.
``illegal="penalize"`` (the default, as ``env()``) or ``"raise"`` (every answer is checked
before any is applied). PettingZoo's ``aec_to_parallel`` does not apply (it needs every agent
to act every cycle: ``metadata["is_parallelizable"]`` is False). ``mask="info"`` follows
PettingZoo's other convention: the observation is the encoder's array alone (a ``Box``) and
every info holds ``action_mask``. SuperSuit's vector wrappers (``pettingzoo_env_to_vec_env_v1``,
``concat_vec_envs_v1``) work on either; its observation wrappers (``dtype_v0``, ``flatten_v0``,
``frame_stack_v1``, ``normalize_obs_v0``) need ``mask="info"``; ``black_death_v3`` is not
needed (the agents end together).

Rendering
---------
``render_mode="ansi"``: ``render()`` returns the table as the selected agent sees it (its hand,
every seat's melds, flowers and pool, the tiles left; the result at the end).
``render_mode="human"``: the env prints that table itself after ``reset()`` and after every
``step`` (Gymnasium's convention), so a loop shows the hand as it is played; ``render()``
prints it once more. The single-agent env prints the learner's table instead.

Illegal actions and errors
--------------------------
An action id is an ``int``, a numpy integer or a 0-d integer array (what a policy returns);
a ``bool`` is not (``True`` would be Win), nor a float. ``raw_env`` raises ``ValueError``
naming the legal actions and changes nothing, for an illegal id and for a non-id. ``env()``
wraps it in :class:`PenalizeIllegalActions`: an action outside the mask (or not an id) ends the
hand with the profile's penalty on the offender (−30, +10 to each other seat, zero-sum) and a
warning. The step an agent takes after its termination must be ``None``. A call out of order
raises :class:`ResetNeeded` (a RuntimeError and a ValueError) in one line: ``step``, ``last``,
``observe``, ``state`` or ``agent_iter`` before ``reset()``, and ``step`` or ``last`` on the
raw env after the episode's end (every agent done and stepped with None); the wrapped env
follows PettingZoo there (it logs "should reset() first" and does nothing). Reset options that
are not a dict, a seat that is not an int 0..3, a wall that is not the profile's tiles: one
``ValueError`` line naming the option. The unwrapped env's
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
``oracle-v1``. Then, with the same game and observations (so the same id): end-of-hand infos
of flat numbers (the nested result moved to ``hand_result()``), ``state()``, the parallel form,
human rendering, the Gymnasium ids.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.wrappers import BaseWrapper, OrderEnforcingWrapper

from mjenv import actions as A
from mjenv.encoders import make_encoder, make_oracle
from mjenv.encoders.base import OracleEncoder, SeatEncoder
from mjenv.engine.game import Game
from mjenv.engine.match import Match
from mjenv.engine.result import HandResult
from mjenv.engine.rules import PROFILES, RuleConfig
from mjenv.engine.seat_view import SeatView, TableViews
from mjenv.engine.wall import make_wall
from mjenv.fans.table import FAN_BY_ZH

AGENTS: tuple[str, str, str, str] = ("player_0", "player_1", "player_2", "player_3")
SEAT_OF: dict[str, int] = {a: s for s, a in enumerate(AGENTS)}
EPISODES = ("hand", "match")
REWARDS = ("score", "normalized", "win_loss")
RENDER_MODES = ("ansi", "human")
ILLEGAL = ("penalize", "raise")
NORMALIZED_SCALE = 100.0
"""``reward="normalized"`` divides the payments by this (a minimum self-drawn win is +48)."""
RESET_OPTIONS = ("wall", "dealer", "prevalent_wind")
STATE_ENCODER = "mjenv-v1"
"""The seat encoder whose four observations open :meth:`MahjongEnv.state`, whatever the env's
own ``encoder`` (so that the state has one layout)."""
STATE_ORACLE = "oracle-v1"
STATE_SEAT_ROWS = 86
"""Rows of one seat's block in the state (``mjenv-v1``'s channels)."""
STATE_SHAPE = (4 * STATE_SEAT_ROWS + 38, 34)
"""``state()``: four ``mjenv-v1`` observations (seats 0..3) and ``oracle-v1`` from seat 0."""
INFO_KEYS = ("hand", "seat", "score", "won", "self_drawn", "dealt_in", "fan_points",
             "exhaustive_draw", "penalized", "winner_seat")
"""The flat fields of an end-of-hand info (see the env card, Infos)."""


class ResetNeeded(RuntimeError, ValueError):
    """The env is asked for something its state cannot give: before ``reset()``, or after the
    episode's end. A RuntimeError (the call, not its argument, is out of place), and a ValueError
    too, as :class:`~mjenv.single_agent.SingleAgentEnv` raised before, so that existing
    ``except ValueError`` handlers still catch it."""


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")
    return value


def _short(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters: an error message stays one short line."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def action_id(action: object) -> int:
    """``action`` as a Python int, or ValueError: an ``int``, a numpy integer or a 0-d integer
    array (what Gymnasium's ``Discrete.contains`` accepts) is an action id; a ``bool`` is not
    (``True`` would silently be Win, id 1), nor a float or anything else. The range is the
    game's to check (it names the legal ids)."""
    if type(action) is int:  # the common case first: no isinstance chain
        return action
    if isinstance(action, (bool, np.bool_)):
        raise ValueError(f"an action is an int id 0..{A.NUM_ACTIONS - 1}, got the bool "
                         f"{action!r}")
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () \
            and np.issubdtype(action.dtype, np.integer):
        return int(action)
    raise ValueError(f"an action is an int id 0..{A.NUM_ACTIONS - 1} (an int or a numpy "
                     f"integer), got {type(action).__name__} {_short(action)}")


def _seat_option(name: str, value: object) -> int:
    """A reset option naming a seat or a wind: an int 0..3 (numpy integers too, no bools)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or not 0 <= int(value) <= 3:
        raise ValueError(f"options[{name!r}] must be an int 0..3, got {_short(value)}")
    return int(value)


def check_seed(seed: object) -> int | None:
    """``seed`` as an int >= 0 or None, else ValueError in our words (numpy's and Gymnasium's
    differ, and Gymnasium's is not a ValueError)."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) \
            or seed < 0:
        raise ValueError(f"seed must be None or an int >= 0, got {_short(seed)}")
    return int(seed)


def result_info(result: HandResult) -> dict[str, Any]:
    """A hand's full result (plain JSON types, agents by name): what
    :meth:`MahjongEnv.hand_result` returns."""
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


def end_info(result: HandResult, seat: int, hand: int) -> dict[str, int | bool]:
    """The info a hand's end gives ``seat``: flat numbers and flags (:data:`INFO_KEYS`), which
    replay buffers (Tianshou, RLlib) store as arrays; the nested result (fans, names) is
    :meth:`MahjongEnv.hand_result`."""
    winner = result.winner
    won = winner == seat
    return {
        "hand": hand,
        "seat": seat,
        "score": int(result.payments[seat]),
        "won": won,
        "self_drawn": won and result.self_drawn,
        "dealt_in": winner is not None and not won and result.from_seat == seat,
        "fan_points": int(result.fan_total) if winner is not None else 0,
        "exhaustive_draw": result.is_draw,
        "penalized": result.penalized == seat,
        "winner_seat": -1 if winner is None else winner,
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
        self._human = render_mode == "human"
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
        self.state_space = spaces.Box(0.0, 1.0, STATE_SHAPE, np.float32)
        self._state_encoders: tuple[SeatEncoder, OracleEncoder] | None = None
        self.game: Game | None = None
        self.match: Match | None = None
        self.hand_index = 0
        self._results: list[HandResult] = []
        self._views: TableViews | None = None

    # ================================================================ PettingZoo API
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = check_seed(seed)
        if options is None:
            options = {}
        elif not isinstance(options, Mapping):
            raise ValueError("reset options must be a dict (such as {'wall': [...], "
                             f"'dealer': 0}}) or None, got {type(options).__name__} "
                             f"{_short(options)}")
        else:
            options = dict(options)
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
        self._results = []
        self._start(game)
        if self._human:
            self._show()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        if game is None:
            raise ResetNeeded("call reset() before observe()")
        seat = SEAT_OF.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {_short(agent)}: the agents are {list(AGENTS)}")
        mask = self.action_mask(agent)
        obs = {"observation": self.encoder.encode(self.view(agent), mask), "action_mask": mask}
        if self.oracle_encoder is not None:
            obs["oracle"] = self.oracle_encoder.encode(game, seat)
        return obs

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """As PettingZoo's ``AECEnv.last``, with a clear error before ``reset()`` and after the
        episode's end (every agent done and stepped with None)."""
        if self.game is None:
            raise ResetNeeded("call reset() before last()")
        if not self.agents:
            raise ResetNeeded("the episode is over (every agent is done): call reset()")
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if self.game is None:  # PettingZoo's iterator would just stop
            raise ResetNeeded("call reset() before agent_iter()")
        return super().agent_iter(max_iter)

    def action_mask(self, agent: str) -> np.ndarray:
        """The agent's legal actions now as 235 int8 (all zero when it is not asked)."""
        mask = bytearray(A.NUM_ACTIONS)  # ~3x faster than np.zeros + mask[legal] = 1
        game = self.game
        if game is not None and not self.terminations.get(agent, True):
            for a in game.legal(SEAT_OF[agent]):  # the game's own list: no copy
                mask[a] = 1
        return np.frombuffer(mask, dtype=np.int8)  # writable: it views its own bytearray

    def step(self, action: int | None) -> None:
        if self.game is None:
            raise ResetNeeded("call reset() before step()")
        if not self.agents:
            raise ResetNeeded("the episode is over (every agent is done): call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        if action is None:
            raise ValueError(f"{agent} must act (None is only for terminated agents); "
                             f"legal: {game.legal_actions(SEAT_OF[agent])}")
        # ValueError for a non-id (a bool, a float) or an illegal id; nothing changes
        game.step(SEAT_OF[agent], action_id(action))
        self._cumulative_rewards[agent] = 0.0
        if self.infos[agent]:
            self.infos[agent] = {}
        self._advance()

    def is_legal(self, agent: str, action: object) -> bool:
        """Whether ``action`` is one of ``agent``'s legal actions now: an action id (see
        :func:`action_id`: an int or numpy integer, not a bool) set in its mask."""
        game = self.game
        if game is None or self.terminations.get(agent, True):
            return False
        try:
            a = action_id(action)
        except ValueError:
            return False
        return a in game.legal(SEAT_OF[agent])  # the game's list, not a 235-entry mask

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
        warnings.warn(f"{who or agent} played the illegal action {_short(action)}: the hand "
                      f"ends with the penalty ({rules.penalty_offender} / "
                      f"+{rules.penalty_others} each other seat)", stacklevel=stacklevel + 1)
        self.penalize(agent)

    def state(self) -> np.ndarray:
        """The global state for a centralised critic, ``state_space`` = ``Box(0, 1, (382, 34),
        float32)``: rows ``86 s .. 86 s + 85`` are seat ``s``'s ``mjenv-v1`` observation (what
        ``observe`` gives ``player_s`` with the default encoder: its hand, every public fact,
        the decision it faces), rows 344-381 ``oracle-v1`` from seat 0 (every hand, the
        concealed kongs, the waits, the wall): the whole table, so every seat's observation is
        a function of it. A new array per call; valid from ``reset()`` on, after the end too."""
        game = self.game
        if game is None:
            raise ResetNeeded("call reset() before state()")
        encoders = self._state_encoders
        if encoders is None:  # the env's own encoder when it is mjenv-v1 (its memo is shared)
            seat_encoder = self.encoder if self.encoder.name == STATE_ENCODER \
                else make_encoder(STATE_ENCODER, self.rules)
            oracle = self.oracle_encoder or make_oracle(STATE_ORACLE, self.rules)
            encoders = self._state_encoders = (seat_encoder, oracle)
        seat_encoder, oracle = encoders
        out = np.empty(STATE_SHAPE, np.float32)
        rows = STATE_SEAT_ROWS
        for s, a in enumerate(AGENTS):
            out[rows * s:rows * (s + 1)] = seat_encoder.encode(self.view(a), self.action_mask(a))
        out[4 * rows:] = oracle.encode(game, 0)
        return out

    def hand_result(self, hand: int = -1) -> dict[str, Any]:
        """The full result of hand ``hand`` of the episode (default: the last one ended), as
        :func:`result_info` gives it: winner and discarder by name, every fan with its Chinese
        and English names, the payments. The infos carry only its flat numbers."""
        results = self._results
        if not results:
            raise ValueError("no hand of this episode has ended yet")
        if not isinstance(hand, (int, np.integer)) or isinstance(hand, bool) \
                or not -len(results) <= hand < len(results):
            raise ValueError(f"hand must be an int index into the {len(results)} ended "
                             f"hand(s) of this episode, got {_short(hand)}")
        return result_info(results[hand])

    def render(self) -> str | None:
        """The table as the selected agent sees it: the text (``"ansi"``), or printed
        (``"human"``; the env prints it by itself after ``reset`` and every ``step``, as
        Gymnasium's human mode does)."""
        if self.render_mode is None:
            return None
        if self.game is None:
            raise ResetNeeded("call reset() before render()")
        text = self._table()
        if self._human:
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def table(self, agent: str | None = None) -> str:
        """The table as ``agent``'s seat sees it (default the selected agent), as text: what
        ``render()`` draws, whatever the render mode."""
        from mjenv.render import render_view

        return render_view(self.view(self.agent_selection if agent is None else agent))

    # ================================================================ internals
    def _table(self) -> str:
        return self.table()

    def _show(self) -> None:
        """``render_mode="human"``: print the table now (after a reset or a step)."""
        print(self._table(), file=sys.stdout, flush=True)

    def _new_hand(self, seed: int, options: dict[str, Any]) -> Game:
        rng = np.random.default_rng(seed)
        dealer = int(rng.integers(4))
        wind = int(rng.integers(4))
        wall_seed = int(rng.integers(2**63))
        if self.rules.fixed_dealer is not None:
            dealer = self.rules.fixed_dealer
        if "dealer" in options:
            dealer = _seat_option("dealer", options["dealer"])
            fixed = self.rules.fixed_dealer
            if fixed is not None and dealer != fixed:
                raise ValueError(f"the {self.rules.profile} profile fixes the dealer at seat "
                                 f"{fixed}, got options['dealer']={dealer}")
        if "prevalent_wind" in options:
            wind = _seat_option("prevalent_wind", options["prevalent_wind"])
        wall = options.get("wall")
        if wall is not None and (isinstance(wall, (str, bytes, Mapping))
                                 or not hasattr(wall, "__len__")):
            raise ValueError("options['wall'] must be a list of tile codes (the profile's full "
                             f"tile list), got {type(wall).__name__} {_short(wall)}")
        if wall is not None:
            wall = list(wall)
            try:  # checked alone first, so that its error names the option
                make_wall(self.rules, wall, seed)
            except (ValueError, TypeError, KeyError, IndexError) as exc:
                raise ValueError(f"options['wall']: {exc}") from None
        return Game(self.rules, seed=wall_seed if wall is None else seed, wall=wall,
                    dealer=dealer, prevalent_wind=wind)

    def _start(self, game: Game) -> None:
        self.game = game
        self._views = TableViews.of_game(game)
        self.agent_selection = AGENTS[game.to_act()[0]]

    def view(self, agent: str) -> SeatView:
        """What ``agent``'s seat knows of the current hand now: its
        :class:`~mjenv.engine.seat_view.SeatView`, folded from the events it may see (the
        observation is encoded from it). The env's own object, caught up on every call:
        read it, ``clone()`` it to keep it."""
        game = self.game
        if game is None:
            raise ResetNeeded("call reset() first")
        views = self._views
        assert views is not None
        return views.view(SEAT_OF[agent], game.events)

    def _advance(self) -> None:
        """After a step: select the next agent, or pay and end (or move on to the next hand)."""
        game = self.game
        assert game is not None
        rewards = self.rewards
        for a in AGENTS:
            rewards[a] = 0.0
        if not game.is_over:
            self.agent_selection = AGENTS[game.to_act()[0]]
            if self._human:
                self._show()
            return
        result = game.result
        assert result is not None
        self._results.append(result)
        for s, a in enumerate(AGENTS):
            rewards[a] = self._reward(result.payments[s])
            self._cumulative_rewards[a] += rewards[a]
            self.infos[a] = end_info(result, s, self.hand_index)
        if self._human:
            self._show()
        match = self.match
        if match is not None:
            match.next_hand()
            if not match.is_over:
                self.hand_index += 1
                self._start(match.game)
                if self._human:
                    self._show()
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
        if env.game is not None and env.agents:
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
    """PettingZoo's order checks, with a direct ``last()`` (see PenalizeIllegalActions.last).
    A call before ``reset()`` raises :class:`ResetNeeded` with PettingZoo's wording, where
    PettingZoo asserts (an assert vanishes under ``python -O``)."""

    def _check_reset(self, what: str) -> None:
        if not self._has_reset:
            raise ResetNeeded(f"reset() needs to be called before {what}")

    def step(self, action: int | None) -> None:
        self._check_reset("step")
        super().step(action)

    def observe(self, agent: str) -> dict[str, np.ndarray] | None:
        self._check_reset("observe")
        out: dict[str, np.ndarray] | None = super().observe(agent)
        return out

    def state(self) -> np.ndarray:
        self._check_reset("state")
        out: np.ndarray = super().state()
        return out

    def render(self) -> Any:
        self._check_reset("render")
        return super().render()

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        self._check_reset("agent_iter")
        return super().agent_iter(max_iter)

    def last(self, observe: bool = True) -> LastTuple:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        out: LastTuple = self.env.last(observe)
        return out


class MahjongParallelEnv(ParallelEnv[str, dict[str, np.ndarray], int | None]):
    """The parallel form (:func:`parallel_env`): at each ``step`` every seat that has a decision
    now acts at once.

    Mahjong is turn-based, but its claim windows are simultaneous decisions: after a discard,
    each seat that may claim answers without seeing the others' answers. The AEC env asks them
    one after the other only because AEC is sequential; here they answer together. So a step is
    the one seat to discard (after a draw or a claim) or every seat of an open claim or robbing
    window (:attr:`deciding`); the others' actions are ignored (any value, or absent: PettingZoo's
    ``parallel_api_test`` sends 0, the sample of an all-zero mask). Every step returns all four
    observations (an all-zero ``action_mask`` for a seat not asked), rewards, terminations,
    truncations and infos; the four agents end together. PettingZoo's ``aec_to_parallel``
    cannot do this (it needs every agent to act every cycle); this class steps the AEC env
    (:attr:`aec`) itself, so both forms give the same games.

    ``illegal="penalize"`` (as ``mjenv.env()``): an illegal action of an asked seat (the first
    in window order) ends the hand with the penalty and a warning; ``"raise"``: ValueError, and
    nothing changes (every answer is checked before any is applied). Options and rewards are
    the AEC env's; the infos are ``{}`` except at a hand's end (the flat fields of the env card).

    ``mask="info"`` follows PettingZoo's other masking convention: the observation is the
    encoder's array alone (a ``Box``, which SuperSuit's observation wrappers require) and every
    info holds ``action_mask``, every step (with the end-of-hand fields when a hand ends).
    ``mask="observation"`` (the default) is the ``Dict`` of the AEC env.
    """

    metadata = {"name": "mcr_mahjong_v0", "render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, illegal: str = "penalize", mask: str = "observation",
                 **options: Any) -> None:
        self.illegal = _choice("illegal", illegal, ILLEGAL)
        self.mask_in = _choice("mask", mask, ("observation", "info"))
        self.aec = MahjongEnv(**options)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.observation_spaces: dict[str, spaces.Space[Any]] = dict(self.aec.observation_spaces)
        if self.mask_in == "info":
            if self.aec.oracle_encoder is not None:
                raise ValueError("mask='info' makes the observation one array: it cannot hold "
                                 "the oracle too (use mask='observation' with oracle=True)")
            box = self.aec.observation_spaces[AGENTS[0]]["observation"]
            self.observation_spaces = dict.fromkeys(AGENTS, box)
        self.action_spaces = self.aec.action_spaces
        self.state_space = self.aec.state_space
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def deciding(self) -> list[str]:
        """The agents whose actions the next ``step`` uses (none once the episode is over)."""
        game = self.aec.game
        if game is None or not self.agents:
            return []
        return [AGENTS[s] for s in game.to_act()]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(AGENTS)
        return self._observations(), self._infos({a: {} for a in AGENTS})

    def step(self, actions: dict[str, int | None]) -> tuple[
            dict[str, Any], dict[str, float], dict[str, bool],
            dict[str, bool], dict[str, dict[str, Any]]]:
        aec = self.aec
        game = aec.game
        if game is None:
            raise ResetNeeded("call reset() before step()")
        if not self.agents:
            raise ResetNeeded("the episode is over (every agent is done): call reset()")
        if not isinstance(actions, Mapping):
            raise ValueError(f"step takes a dict of actions by agent, got "
                             f"{type(actions).__name__} {_short(actions)}")
        asked = [AGENTS[s] for s in game.to_act()]
        missing = [a for a in asked if actions.get(a) is None]
        if missing:
            raise ValueError(f"{missing} must act now (the agents asked: {asked}); the "
                             "others' actions are ignored")
        offender = next((a for a in asked if not aec.is_legal(a, actions[a])), None)
        ended = len(aec._results)
        rewards = dict.fromkeys(AGENTS, 0.0)
        if offender is not None:
            if self.illegal == "raise":  # nothing has changed: every answer is checked first
                seat = SEAT_OF[offender]
                raise ValueError(f"{offender} played the illegal action "
                                 f"{_short(actions[offender])}; legal: "
                                 f"{game.legal_actions(seat)}")
            aec.penalize_illegal(offender, actions[offender], stacklevel=2)
            for x in AGENTS:
                rewards[x] += aec.rewards[x]
        else:
            for a in asked:  # window order: the AEC env selects them in this order
                aec.step(action_id(actions[a]))
                for x in AGENTS:
                    rewards[x] += aec.rewards[x]
        done = aec.terminations[AGENTS[0]]
        terminations = dict.fromkeys(AGENTS, done)
        truncations = dict.fromkeys(AGENTS, False)
        hand_ended = len(aec._results) > ended
        infos = self._infos({a: dict(aec.infos[a]) if hand_ended else {} for a in AGENTS})
        observations = self._observations()
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        """The AEC env's :meth:`MahjongEnv.state`."""
        return self.aec.state()

    def hand_result(self, hand: int = -1) -> dict[str, Any]:
        """The AEC env's :meth:`MahjongEnv.hand_result`."""
        return self.aec.hand_result(hand)

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def _observations(self) -> dict[str, Any]:
        observe = self.aec.observe
        if self.mask_in == "info":
            encode, view = self.aec.encoder.encode, self.aec.view
            mask = self.aec.action_mask
            return {a: encode(view(a), mask(a)) for a in AGENTS}
        return {a: observe(a) for a in AGENTS}

    def _infos(self, infos: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        if self.mask_in == "info":
            for a, info in infos.items():
                info["action_mask"] = self.aec.action_mask(a)
        return infos


def raw_env(**options: Any) -> MahjongEnv:
    """The unwrapped environment (fast; an illegal action raises ValueError)."""
    return MahjongEnv(**options)


def env(**options: Any) -> AECEnv[str, dict[str, np.ndarray], int | None]:
    """The wrapped environment: illegal actions are penalized, and the usual order checks."""
    return _OrderEnforcing(PenalizeIllegalActions(raw_env(**options)))


def parallel_env(**options: Any) -> MahjongParallelEnv:
    """The parallel form (:class:`MahjongParallelEnv`): every seat with a decision acts at
    once; ``illegal="penalize"`` (default) or ``"raise"``, and the AEC env's options."""
    return MahjongParallelEnv(**options)
