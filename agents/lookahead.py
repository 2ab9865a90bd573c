"""``LookaheadAgent`` (spec ``lookahead``): ``rule`` with one ply of search over its next draw.

``rule`` (:mod:`mjenv_agents.rule_based`) values the 13-tile hand each discard leaves by the
plans it could still become, a number that knows how far the hand is from each plan but not
which draws would bring it closer. This agent keeps every decision of ``rule`` but one: on its
own turn, where ``rule``'s best discards are close, it looks one draw ahead. For each of the
leading discards (at most ``candidates``, each scored within ``window`` of ``rule``'s choice),
the hand it leaves is valued as the mean, over the next tile drawn (each kind weighted by its
copies this seat has not seen), of ``rule``'s value of the hand after ``rule``'s best discard
from it; the danger penalty ``rule`` gives the discard is subtracted, and the best wins (ties
to ``rule``'s choice). A drawn tile that the hand does not hold and that no held tile of its
suit is within two ranks of (and an honour not held) is counted as leaving the hand's value
unchanged, as ``rule`` would discard it again: the only approximation, and what keeps a search
to a few milliseconds.

Why it helps, measured (docs/training.md, "A search agent: one draw of lookahead"): the leading
discards of ``rule`` often tie on plans and shanten while one keeps more live tiles toward the
plans; averaging ``rule``'s own value over the draws tells them apart. About 11 own turns a
hand are searched and about 3 change ``rule``'s discard: +1.86 per hand against three
``rule`` players [+0.70, +3.02] over 1,000 duplicate deals, +1.17 [+0.52, +1.82] over 3,000
others. Claims, kongs, wins and defence are ``rule``'s.

Options: ``window`` (the share of ``rule``'s score within which a discard is a candidate),
``candidates`` (how many at most), and every option of ``rule`` (``decay``, ``defence``, ...).
``searched`` and ``departures`` count the turns searched and the discards changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjenv.tiles import EAST, NUM_KINDS

from .rule_based import MeldList, RuleBasedAgent, isolated_suited


class LookaheadAgent(RuleBasedAgent):
    """See the module docstring."""

    def __init__(self, window: float = 0.15, candidates: int = 4, **options: Any) -> None:
        window = float(window)
        if not window >= 0:
            raise ValueError(f"lookahead: window must be >= 0, got {window!r}")
        if not isinstance(candidates, int) or candidates < 1:
            raise ValueError(f"lookahead: candidates must be an integer >= 1, got {candidates!r}")
        super().__init__(**options)
        self.window = window
        self.candidates = candidates
        self.searched = 0
        self.departures = 0

    def _own_discard(self, counts: list[int], melds: MeldList, discards: Sequence[int]
                     ) -> tuple[int, float]:
        plans = self._plans(counts, melds, 5)
        scored = self._scored_discards(counts, melds, discards, plans)
        tile, value, _ = self._pick(counts, melds, scored, plans)
        lead = next(x[0] for x in scored if x[3] == tile)
        floor = lead - abs(lead) * self.window - 1e-9
        near = [x for x in scored[:self.candidates] if x[0] >= floor]
        if len(near) < 2 or all(x[3] != tile for x in near):
            return tile, value
        self.searched += 1
        means: dict[int, float] = {}
        for x in near:
            t = x[3]
            counts[t] -= 1
            means[t] = self._after_next_draw(counts, melds) - x[4]  # less the danger penalty
            counts[t] += 1
        best, best_mean = tile, means[tile]
        for x in near:
            mean = means[x[3]]
            if mean > best_mean + 1e-9 + abs(best_mean) * 1e-4:
                best, best_mean = x[3], mean
        if best != tile:
            self.departures += 1
        return best, value

    def _after_next_draw(self, hand: list[int], melds: MeldList) -> float:
        """The mean over the next draw of ``rule``'s value of a 13-tile hand after its best
        discard (the hand's own value when no discard does better), each kind weighted by its
        unseen copies."""
        f = self._facts
        assert f is not None
        unseen = f.unseen
        now = self._value13(hand, melds)
        total = 0.0
        weight = 0
        for u in range(NUM_KINDS):
            copies = unseen[u]
            if copies <= 0 or hand[u] >= 4:
                continue
            weight += copies
            if (u >= EAST and not hand[u]) or isolated_suited(hand, u):
                total += copies * now  # joins nothing: discarded again
                continue
            hand[u] += 1
            plans = self._plans(hand, melds, 5)
            best = now
            for x in range(NUM_KINDS):
                if hand[x]:
                    hand[x] -= 1
                    v, _ = self._combine(hand, melds, plans)
                    hand[x] += 1
                    if v > best:
                        best = v
            hand[u] -= 1
            total += copies * best
        return total / weight if weight else now
