"""One game of a batch: what ``raw_env`` keeps for a table, without PettingZoo's bookkeeping.

A :class:`GameSlot` plays one episode after another (a hand, or a match of hands) on the engine
(:class:`~mjenv.engine.game.Game`, :class:`~mjenv.engine.match.Match`) with one
:class:`~mjenv.engine.seat_view.SeatView` per seat folded lazily from the events (the four
together, :class:`~mjenv.engine.seat_view.TableViews`), and encodes a
seat's observation with its own encoders (encoders memoize per seat by content, so a slot that
shares them with other games would only miss its memo). It makes the same games from the same
seeds as ``raw_env``: :func:`new_hand` is ``raw_env``'s derivation of a single hand from a seed
(dealer, prevalent wind, then the wall's seed), and a match is ``Match(rules, seed)`` as there.
tests/vector compare both, step for step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from mjenv.actions import NUM_ACTIONS
from mjenv.encoders import SeatEncoder, make_encoder, make_oracle
from mjenv.encoders.base import DEFAULT_ORACLE, OracleEncoder
from mjenv.engine.game import Game
from mjenv.engine.match import Match
from mjenv.engine.result import HandResult
from mjenv.engine.rules import RuleConfig
from mjenv.engine.seat_view import SeatView, TableViews
from mjenv.mahjong_env import NORMALIZED_SCALE
from mjenv.vector.options import EnvOptions


def new_hand(rules: RuleConfig, seed: int) -> Game:
    """The single hand ``raw_env(episode="hand").reset(seed=seed)`` deals: dealer and prevalent
    wind drawn from ``seed`` (the profile's fixed dealer wins), then the wall's seed."""
    rng = np.random.default_rng(seed)
    dealer = int(rng.integers(4))
    wind = int(rng.integers(4))
    wall_seed = int(rng.integers(2**63))
    if rules.fixed_dealer is not None:
        dealer = rules.fixed_dealer
    return Game(rules, seed=wall_seed, dealer=dealer, prevalent_wind=wind)


def reward_of(mode: str, payment: int) -> float:
    """A seat's reward for a hand's payment in ``raw_env``'s ``reward`` mode."""
    if mode == "score":
        return float(payment)
    if mode == "normalized":
        return payment / NORMALIZED_SCALE
    return float((payment > 0) - (payment < 0))


class HandEnd(NamedTuple):
    """A hand that just ended: its result and its index in the episode (from 0)."""

    result: HandResult
    hand: int


class GameSlot:
    """One table of a batch (see the module docstring). ``seat`` is the seat to act now (the
    first of :meth:`Game.to_act`); ``over`` is true once the episode has ended."""

    __slots__ = ("options", "rules", "encoder", "oracle", "game", "match", "views",
                 "hand_index", "seat", "over", "working_set", "item_lists")

    def __init__(self, options: EnvOptions, encoder: str | None = None) -> None:
        self.options = options
        self.rules = options.rule_config
        self.encoder: SeatEncoder = make_encoder(encoder or options.encoder, self.rules)
        self.oracle: OracleEncoder | None = (make_oracle(DEFAULT_ORACLE, self.rules)
                                             if options.oracle else None)
        self.game: Game | None = None
        self.match: Match | None = None
        self.views: TableViews | None = None
        self.hand_index = 0
        self.seat = -1
        self.over = True
        self.working_set: list[object] = []
        """The objects holding this table's state (:meth:`state_objects`), refilled in place
        at each hand: the batch prefetches them a few games before this one steps
        (:mod:`mjenv.vector.prefetch`)."""
        self.item_lists: list[list[Any]] = self.encoder.state_lists()
        """The encoder's lists whose items change from step to step (its memo blocks:
        :meth:`SeatEncoder.state_lists`), among the working set: the batch prefetches their
        items a game before this one steps (:func:`mjenv.vector.prefetch.prefetch_items`)."""

    def start(self, seed: int) -> None:
        """Begin a new episode from ``seed``, as ``raw_env.reset(seed=seed)``."""
        if self.options.episode == "match":
            self.match = Match(self.rules, seed=seed)
            game = self.match.game
        else:
            self.match = None
            game = new_hand(self.rules, seed)
        self.hand_index = 0
        self.over = False
        self._begin(game)

    def resume(self, game: Game) -> None:
        """Play on from ``game``, a hand already in progress (a :meth:`Game.clone` of a real
        table, to finish it another way): one hand, whatever the options' episode, numbered 0.
        The seat views are new and catch up with the hand's events when first read, so the
        observations are those of the table ``game`` was cloned from."""
        self.match = None
        self.hand_index = 0
        self._begin(game)
        self.over = game.is_over

    def _begin(self, game: Game) -> None:
        self.game = game
        if self.views is not None:  # the same four views, emptied (SeatView.restart says why)
            self.views.restart(dealer=game.dealer, prevalent_wind=game.prevalent_wind)
        else:
            self.views = TableViews.of_game(game)
        self.seat = game.to_act()[0] if not game.is_over else -1
        self.working_set[:] = self.state_objects()

    def state_objects(self) -> list[object]:
        """Its game's, its views' and its encoders' :meth:`state_objects`: what a step of this
        table reads, for :attr:`working_set` (not the slot itself: its working set would then
        hold it, a cycle that only the garbage collector could free)."""
        game = self.game
        views = self.views
        assert game is not None and views is not None, "start() first"
        out = game.state_objects()
        out += views.state_objects()
        out += self.encoder.state_objects()
        if self.oracle is not None:
            out += self.oracle.state_objects()
        return out

    # ---------------------------------------------------------------- reading
    def legal(self, seat: int) -> Sequence[int]:
        """``seat``'s legal actions now (empty when it is not asked or the episode is over):
        the game's own sequence, never to be changed."""
        game = self.game
        assert game is not None, "start() first"
        return game.legal(seat)

    def view(self, seat: int) -> SeatView:
        """``seat``'s view, caught up with the game's events."""
        game = self.game
        views = self.views
        assert game is not None and views is not None, "start() first"
        return views.view(seat, game.events)

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s legal-action mask as a new int8 array (``raw_env.action_mask``)."""
        bits = bytearray(NUM_ACTIONS)
        for a in self.legal(seat):
            bits[a] = 1
        return np.frombuffer(bits, dtype=np.int8)

    def observe(self, seat: int, encoder: SeatEncoder | None = None,
                ) -> dict[str, npt.NDArray[Any]]:
        """``raw_env.observe`` for ``seat``: new arrays (``encoder`` replaces the slot's own
        for the ``observation`` key)."""
        mask = self.mask(seat)
        obs = {"observation": (encoder or self.encoder).encode(self.view(seat), mask),
               "action_mask": mask}
        if self.oracle is not None:
            assert self.game is not None
            obs["oracle"] = self.oracle.encode(self.game, seat)
        return obs

    # ---------------------------------------------------------------- acting
    def step(self, action: int) -> HandEnd | None:
        """Play ``action`` for :attr:`seat` (ValueError naming the legal actions if it is not
        one; nothing changes then). Returns the hand's end when the action ended a hand (in a
        match the next hand has begun then), else None."""
        game = self.game
        assert game is not None and not self.over, "start() first"
        game.step(self.seat, action)
        return self._after()

    def penalize(self) -> HandEnd:
        """End the hand with the profile's penalty on :attr:`seat` (``raw_env.penalize``)."""
        game = self.game
        assert game is not None and not self.over, "start() first"
        game.penalize(self.seat)
        end = self._after()
        assert end is not None
        return end

    def _after(self) -> HandEnd | None:
        game = self.game
        assert game is not None
        if not game.is_over:
            self.seat = game.to_act()[0]
            return None
        result = game.result
        assert result is not None
        end = HandEnd(result, self.hand_index)
        match = self.match
        if match is not None:
            match.next_hand()
            if not match.is_over:
                self.hand_index += 1
                self._begin(match.game)
                return end
        self.over = True
        self.seat = -1
        return end
