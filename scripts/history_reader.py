"""Reading another seat's hand by searching its whole history (experiment for issue 18; the
mcr rules; a sequel to scripts/particle_reader.py).

The particle filter showed two things (docs/training.md): against ``rule`` players the public
events and ``rule``'s own decisions nearly pin each hand down (one wrong starting tile is given
away in 97 % of the hands the events still allow), yet a filter cannot find the hands that fit,
because a resampled hand can never change a tile it has held since the deal. Here the unknowns
are searched as a whole: a seat's *history* is its starting hand and each hidden draw, and a
Markov chain (Metropolis, annealed) changes one starting tile or one draw at a time, replaying
the seat's recorded decisions after each change.

* :class:`Recorder` follows one seat through a hand and keeps, in order, what a history must
  fit: each hidden draw, each of its turns (its observation and legality facts then, and what
  it did), each claim window on another seat's discard or added kong (and how it was resolved),
  each meld from its hand, and the observer's unseen counts (the seat cannot hold more copies
  than the observer has not seen).
* :meth:`Recorder.replay` plays a history through them: the departures (decisions its ``rule``
  would have made otherwise) and the violations (a tile needed and not held, copies the
  observer has seen). A draw is the tile the next turn shows when the hand lacks it; otherwise
  the history's own choice for that draw.
* :meth:`Recorder.search` runs the chain on ``departures + 4 * violations``, the temperature
  falling to ``eps`` per departure, and keeps the final hands of the visited histories.

``python scripts/history_reader.py --hands 30`` plays hands of four ``rule`` players (seeds
7000 onwards); at the observer's first discard decision with at most ``--late`` tiles left
(one observer a hand, seat ``hand % 4``) it searches the three other seats' histories and
scores each legal discard by the share of kept hands that wait on it, beside ``rule``'s own
danger penalty (AUC against the discards another seat could really win on), and reports how
much of the real hands the kept hands hold.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from particle_reader import (
    Facts,
    from_hand,
    mask_of,
    play_hand,
    print_aucs,
    put_hand,
    resolution,
    score_discards,
)
from particle_reader import departs as window_departs
from tqdm import tqdm

from mjenv import actions as A
from mjenv.decompose import waiting_counts
from mjenv.encoders import make_encoder
from mjenv.encoders.base import SeatEncoder
from mjenv.engine.events import (
    AddedKong,
    Chow,
    ConcealedKong,
    Discard,
    Draw,
    Event,
    Flower,
    Kong,
    Pung,
    Win,
)
from mjenv.engine.game import Game
from mjenv.engine.legal import claim_options, play_actions, rob_options
from mjenv.engine.rules import MCR, RuleConfig
from mjenv.engine.seat_view import SeatView
from mjenv.fans import InvalidHandError
from mjenv.vector.options import env_options
from mjenv.vector.slot import GameSlot
from mjenv_agents.rule_based import RuleBasedAgent

T = 34
VIOLATION = 4.0
"""A violation costs as much as this many departures."""


@dataclass
class Step:
    """One thing a history must fit, in the order of the hand (``kind``: draw, turn, window,
    take or cap); ``cap``: the observer's unseen counts then."""

    kind: str
    cap: list[int]
    need: int = -1  # turn: the tile it shows (-1: a concealed kong); draw: the next turn's
    real: int | None = None  # turn/window: the action taken (None: any concealed kong)
    base: npt.NDArray[np.float32] | None = None
    hidden: npt.NDArray[np.int64] | None = None
    facts: Facts | None = None
    kong_draw: bool = False
    tile: int = -1  # window: the tile offered; draw: the real tile (for checks only)
    discarder: int = -1
    rob: bool = False
    claimant: int = -1
    tiles: list[int] = field(default_factory=list)  # take: the tiles melded from the hand


class Recorder:
    """One seat's hand as an observer sees it (see the module docstring)."""

    def __init__(self, view: SeatView, observer_unseen: Sequence[int], rule: RuleBasedAgent,
                 encoder: SeatEncoder, rules: RuleConfig = MCR) -> None:
        self.view, self.rule, self.encoder, self.rules = view, rule, encoder, rules
        self.seat = view.seat
        standing = list(view.hand)
        if view.drawn >= 0:
            standing[view.drawn] -= 1
        self.size = sum(standing)
        self.start_cap = list(observer_unseen)
        self.real_start = standing  # the real history (for checks only: replay must fit it)
        self.steps: list[Step] = []
        if view.drawn >= 0:
            self.steps.append(Step("draw", list(observer_unseen), tile=view.drawn))
        self.after_kong = False
        self.kong_draw = False
        self.memo: dict[tuple[int, bytes, int], int] = {}
        self.fitting = 0.0
        self.fit: list[bool] = []  # which of the kept histories fit every decision

    # ---------------------------------------------------------------- recording
    def feed(self, e: Event, nxt: Event | None, before: Sequence[int],
             after: Sequence[int]) -> None:
        v, me = self.view, self.seat
        if v.over:
            return
        if e.seat == me and (isinstance(e, (Discard, AddedKong, ConcealedKong))
                             or (isinstance(e, Win) and e.from_seat is None)):
            self.steps.append(self._turn(e, before))
        v.apply(e)
        if e.seat == me:
            if isinstance(e, Draw):
                self.steps.append(Step("draw", list(after), tile=e.tile))
                self.kong_draw, self.after_kong = self.after_kong, False
            elif isinstance(e, Flower):
                self.after_kong = False
            elif isinstance(e, (Chow, Pung, Kong)):
                self.steps.append(Step("take", list(after), tiles=from_hand(e)))
                self.after_kong = isinstance(e, Kong)
            elif isinstance(e, (AddedKong, ConcealedKong)):
                self.after_kong = True
        elif isinstance(e, (Discard, AddedKong)):
            self.steps.append(self._window(e, nxt, after))
        elif list(before) != list(after):
            self.steps.append(Step("cap", list(after)))

    def _base(self, legal: list[int]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
        v = self.view
        return (self.encoder.encode(v, mask_of(legal)),
                np.array(v.unseen) + np.array(v.hand))

    def _turn(self, e: Event, cap: Sequence[int]) -> Step:
        kong = isinstance(e, ConcealedKong)
        need = -1 if kong else int(e.tile)  # type: ignore[attr-defined]
        real = (None if kong else A.DISCARD_BASE + need if isinstance(e, Discard) else
                A.ADDED_KONG_BASE + need if isinstance(e, AddedKong) else A.WIN)
        base, hidden = self._base([A.DISCARD_BASE])
        for s in reversed(self.steps):  # the draw before this turn supplies what it shows
            if s.kind == "draw":
                s.need = need
                break
            if s.kind == "turn":
                break
        return Step("turn", list(cap), need=need, real=real, base=base, hidden=hidden,
                    facts=Facts(self.view, self.rules),
                    kong_draw=self.kong_draw and self.view.drawn >= 0)

    def _window(self, e: Event, nxt: Event | None, cap: Sequence[int]) -> Step:
        claimant, real = resolution(e, nxt)
        base, hidden = self._base([A.PASS])
        return Step("window", list(cap), real=real, base=base, hidden=hidden,
                    facts=Facts(self.view, self.rules), tile=int(e.tile),  # type: ignore[attr-defined]
                    discarder=e.seat, rob=isinstance(e, AddedKong), claimant=claimant)

    def real_picks(self) -> list[int]:
        """The real draws (for checks only)."""
        return [s.tile for s in self.steps if s.kind == "draw"]

    # ---------------------------------------------------------------- replaying a history
    def _ask(self, k: int, s: Step, hand: list[int], drawn: int, legal: list[int]) -> int:
        key = (k, bytes(hand), drawn)
        got = self.memo.get(key)
        if got is not None:
            return got
        assert s.base is not None and s.hidden is not None
        got = self.rule.act(put_hand(s.base, s.hidden, hand, drawn, legal), mask_of(legal))
        if len(self.memo) > 500_000:
            self.memo.clear()
        self.memo[key] = got
        return got

    def replay(self, start: list[int], picks: list[int]) -> tuple[int, int, list[int]]:
        """(departures, violations, the hand at the end) of the history that starts with
        ``start`` and draws ``picks[j]`` at its ``j``-th draw where the next turn does not
        force the tile."""
        hand = start[:]
        drawn, j, dep, vio = -1, 0, 0, 0
        me = self.seat
        for k, s in enumerate(self.steps):
            if s.kind == "draw":
                drawn = s.need if s.need >= 0 and not hand[s.need] else picks[j]
                j += 1
                hand[drawn] += 1  # held from now on; the turn reads it as the drawn tile
            elif s.kind == "turn":
                assert s.facts is not None
                thirteen = hand[:]
                if drawn >= 0:
                    thirteen[drawn] -= 1
                if s.need >= 0 and not hand[s.need]:
                    vio += 1
                    self._swap_in(hand, s.need)
                try:
                    legal = play_actions(s.facts.holding(hand, thirteen), self.rules, drawn,
                                         s.kong_draw and drawn >= 0)
                except InvalidHandError:
                    legal = []
                if s.real is not None and s.real not in legal:
                    vio += 1
                    got = s.real
                else:
                    got = self._ask(k, s, hand, drawn, legal)
                kong = A.CONCEALED_KONG_BASE <= got < A.ADDED_KONG_BASE
                dep += (got != s.real) if s.real is not None else not kong
                if s.real is None:  # a concealed kong: rule's kind, else any four held
                    kind = got - A.CONCEALED_KONG_BASE if kong else next(
                        (t for t in range(T) if hand[t] == 4), -1)
                    if kind < 0:
                        vio += 1
                        kind = int(np.argmax(hand))
                    hand[kind] -= min(4, hand[kind])
                elif s.real != A.WIN:
                    hand[s.need] -= 1
                drawn = -1
            elif s.kind == "take":
                for t in s.tiles:
                    if not hand[t]:
                        vio += 1
                        self._swap_in(hand, t)
                    hand[t] -= 1
            elif s.kind == "window":
                dep += self._window_departs(k, s, hand, me)
            vio += sum(max(h - c, 0) for h, c in zip(hand, s.cap, strict=True)) if (
                s.kind != "turn") else 0
        return dep, vio, hand

    def _swap_in(self, hand: list[int], t: int) -> None:
        """Put ``t`` in ``hand`` in place of its most plentiful other kind (a violation)."""
        other = max((k for k in range(T) if k != t), key=lambda k: hand[k])
        if hand[other]:
            hand[other] -= 1
        hand[t] += 1

    def _window_departs(self, k: int, s: Step, hand: list[int], me: int) -> int:
        assert s.facts is not None
        facts = s.facts.holding(hand, hand)
        try:
            found = (rob_options([facts], self.rules, s.tile) if s.rob else
                     claim_options([facts], self.rules, s.tile, s.discarder))[0].get(me)
        except InvalidHandError:
            found = None
        answer = A.PASS if found is None else self._ask(k, s, hand, -1, found)
        assert s.real is not None
        return int(window_departs(answer, me, s.discarder, s.claimant, s.real))

    # ---------------------------------------------------------------- the search
    def search(self, rng: np.random.Generator, steps: int, eps: float = 0.02,
               keep: int = 50) -> tuple[list[list[int]], int]:
        """Annealed Metropolis over histories; returns the end hands of ``keep`` histories
        visited in the last half (evenly spaced) and the fewest departures + violations met;
        :attr:`fitting` is the share of the kept histories that fit every decision."""
        draws = sum(s.kind == "draw" for s in self.steps)
        pool = np.array(self.start_cap, dtype=np.float64)
        start = [0] * T
        for t in rng.choice(T, size=self.size, p=pool / pool.sum()):
            start[int(t)] += 1
        picks = [int(t) for t in rng.choice(T, size=draws, p=pool / pool.sum())]
        dep, vio, end = self.replay(start, picks)
        energy = dep + VIOLATION * vio
        best = energy
        hot = -math.log(eps)
        kept: list[list[int]] = []
        fit: list[bool] = []
        every = max(1, (steps // 2) // keep)
        for n in range(steps):
            beta = hot * min(1.0, 0.2 + n / (0.5 * steps))
            new_start, new_picks = start, picks
            if not draws or rng.random() < 0.5:
                new_start = start[:]
                out = int(rng.choice(T, p=np.array(start) / sum(start)))
                new_start[out] -= 1
                new_start[int(rng.choice(T, p=pool / pool.sum()))] += 1
            else:
                new_picks = picks[:]
                new_picks[int(rng.integers(draws))] = int(rng.choice(T, p=pool / pool.sum()))
            d2, v2, e2 = self.replay(new_start, new_picks)
            proposed = d2 + VIOLATION * v2
            if proposed <= energy or rng.random() < math.exp(-beta * (proposed - energy)):
                start, picks, energy, end = new_start, new_picks, proposed, e2
                best = min(best, energy)
            if n >= steps - steps // 2 and (n - (steps - steps // 2)) % every == 0:
                kept.append(end[:])
                fit.append(energy == 0)
        self.fit = fit[-keep:]
        self.fitting = float(np.mean(self.fit)) if fit else 0.0
        return kept[-keep:], int(best)


COLUMNS = ("dangerous", "history shape", "rule", "rule x history shape")

def measure(hands: int, steps: int = 2000, eps: float = 0.02, start: int = 7000,
            late: int = 40, progress: bool = True,
            ) -> tuple[npt.NDArray[np.float64], dict[str, float]]:
    """See the module docstring: the rows (``COLUMNS``) and the diagnostics."""
    rule = RuleBasedAgent()
    encoder = make_encoder("mjenv-v1", MCR)
    slot = GameSlot(env_options({"rules": "mcr"}))
    rng = np.random.default_rng(start)
    rows: list[tuple[float, ...]] = []
    held: dict[str, list[float]] = {"history": [], "uniform": [], "fewest": [], "fitting": [],
                                    "fitting history": []}

    def read(game: Game, seat: int, legal: list[int], seen: dict[str, Any],
             recorders: list[Recorder], mine: SeatView) -> None:
        if (game.wall.remaining > late or A.WIN in legal or A.PASS in legal
                or held["read"]):
            return
        held["read"] = [1.0]
        others = np.ones(T)
        for r in recorders:
            kept, fewest = r.search(rng, steps, eps)
            share = np.zeros(T)
            melds = len(r.view.melds[r.seat])
            for hand in kept:
                share[waiting_counts(hand, melds)] += 1 / len(kept)
            others *= 1 - share
            real = game.hands[r.seat]
            held["history"].append(float(np.mean([sum(map(min, k, real)) for k in kept])))
            pool = np.array(mine.unseen, dtype=np.float64)
            guess = [0] * T
            for t in rng.choice(T, size=sum(real), p=pool / pool.sum()):
                guess[int(t)] += 1
            held["uniform"].append(float(sum(map(min, guess, real))))
            held["fewest"].append(float(fewest))
            held["fitting"].append(r.fitting)
            held["fitting history"] += [float(sum(map(min, k, real)))
                                        for k, ok in zip(kept, r.fit, strict=True) if ok]
        rows.extend(score_discards(rule, game, seat, legal, seen, [1 - others]))

    for h in tqdm(range(hands), desc="history reader", unit="hand", disable=not progress):
        held["read"] = []
        play_hand(slot, start + h, h % 4, rule,
                  lambda view, unseen: Recorder(view, unseen, rule, encoder), read)
    del held["read"]
    stats = {f"held {k}": float(np.mean(v)) if v else float("nan") for k, v in held.items()}
    stats["fewest (median)"] = float(np.median(held["fewest"])) if held["fewest"] else math.nan
    return np.array(rows, dtype=np.float64).reshape(-1, len(COLUMNS)), stats


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10, help="hands of four rule players")
    parser.add_argument("--start", type=int, default=7000, help="the first hand's seed")
    parser.add_argument("--steps", type=int, default=2000, help="chain steps per seat")
    parser.add_argument("--eps", type=float, default=0.02,
                        help="the final weight of one departure (the temperature)")
    parser.add_argument("--late", type=int, default=40,
                        help="read at the observer's first discard with at most this many left")
    parser.add_argument("--out", default=None, help="an .npz file to keep every row")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.steps < 2 or not 0 < args.eps < 1 or args.start < 0:
        parser.error("--hands >= 1, --steps >= 2, 0 < --eps < 1, --start >= 0")
    rows, stats = measure(args.hands, args.steps, args.eps, args.start, args.late)
    if args.out:
        np.savez(args.out, rows=rows, columns=np.array(COLUMNS))
    if not len(rows):
        print("no discard of the observer was read (the hands ended early)")
        return 0
    labels = rows[:, 0] > 0
    print(f"{len(rows)} discards, {labels.mean():.1%} of them another seat could win on; "
          f"kept hands hold {stats['held history']:.2f} tiles of the real hand (a uniform "
          f"guess: {stats['held uniform']:.2f}); the best history met departs + 4 x violates "
          f"{stats['fewest (median)']:.0f} (median); {stats['held fitting']:.0%} of the kept "
          f"histories fit every decision, and hold {stats['held fitting history']:.2f} tiles")
    print_aucs(rows, COLUMNS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
