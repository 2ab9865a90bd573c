"""The game engine: one hand (:class:`Game`), a match (:class:`Match`), rule profiles, the
wall, the 235-action layout and events; :func:`sample_game`, a hand as one seat may imagine it
(for search). Rules: docs/rules.md §1–§2."""

from mjenv.actions import NUM_ACTIONS, action_to_string
from mjenv.engine.determinize import sample_game
from mjenv.engine.game import CLAIM_PRIORITY, Game
from mjenv.engine.invariants import check_invariants
from mjenv.engine.match import Match
from mjenv.engine.result import HandResult
from mjenv.engine.rules import BOTZONE, MCR, PROFILES, RuleConfig
from mjenv.engine.seat_view import SeatView, fold
from mjenv.engine.wall import SeatWalls, Wall

__all__ = [
    "BOTZONE",
    "CLAIM_PRIORITY",
    "MCR",
    "PROFILES",
    "NUM_ACTIONS",
    "Game",
    "HandResult",
    "Match",
    "RuleConfig",
    "SeatView",
    "SeatWalls",
    "Wall",
    "action_to_string",
    "check_invariants",
    "fold",
    "sample_game",
]
