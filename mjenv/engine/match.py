"""A match: ``hands_per_match`` hands (16 for MCR, 1 for botzone). In hand ``h`` the dealer is
``h % 4`` (or the profile's ``fixed_dealer``) and the prevalent wind ``h // 4`` (rules §1.2);
seat winds follow as ``(p - dealer) % 4``.

>>> m = Match(seed=7)
>>> while not m.is_over:
...     g = m.game
...     while not g.is_over:
...         s = g.to_act()[0]
...         _ = g.step(s, g.legal_actions(s)[0])
...     _ = m.next_hand()
>>> len(m.results), sum(m.scores)  # 16 hands; every payment is paid by someone
(16, 0)
"""

from __future__ import annotations

import numpy as np

from mjenv.engine.game import Game
from mjenv.engine.result import HandResult
from mjenv.engine.rules import MCR, RuleConfig


class Match:
    """Runs hands one after another and keeps the cumulative scores.

    ``seed`` seeds a ``numpy.random.SeedSequence`` from which each hand's wall seed is drawn
    (``hand_seeds``), so a match is reproducible and each hand can be replayed alone.
    """

    def __init__(self, rules: RuleConfig = MCR, seed: int | None = None) -> None:
        self.rules = rules
        self.seed = seed
        state = np.random.SeedSequence(seed).generate_state(rules.hands_per_match, np.uint64)
        self.hand_seeds: tuple[int, ...] = tuple(int(x) for x in state)
        self.scores: list[int] = [0, 0, 0, 0]
        self.results: list[HandResult] = []
        self.games: list[Game] = []
        """The finished hands, in order (for records: mjenv.engine.record.match_record)."""
        self.hand_index = 0
        self.game = self._new_game()

    def _new_game(self) -> Game:
        h = self.hand_index
        return Game(self.rules, seed=self.hand_seeds[h], dealer=self.dealer,
                    prevalent_wind=(h // 4) % 4)

    @property
    def is_over(self) -> bool:
        return self.hand_index >= self.rules.hands_per_match

    @property
    def dealer(self) -> int:
        fixed = self.rules.fixed_dealer
        return self.hand_index % 4 if fixed is None else fixed

    @property
    def prevalent_wind(self) -> int:
        return (self.hand_index // 4) % 4

    def next_hand(self) -> Game | None:
        """Book the finished hand's payments and start the next hand (None after the last)."""
        if self.is_over:
            raise ValueError("the match is over")
        result = self.game.result
        if result is None:
            raise ValueError("the current hand is not over")
        self.results.append(result)
        self.games.append(self.game)
        for s in range(4):
            self.scores[s] += result.payments[s]
        self.hand_index += 1
        if self.hand_index >= self.rules.hands_per_match:
            return None
        self.game = self._new_game()
        return self.game
