"""How much is defence worth against ``rule``? The ``rule`` player told, by the game itself, which
of its discards an opponent could win on, against three ``rule`` players on duplicate deals.

    python scripts/defence_oracle.py [--deals 500] [--start 0] [--waits exact|shape|ready]
                                     [--flip P]

This is a measurement of a ceiling, not an agent: the guarded seat reads the hidden state
(``env.game``), which no fair player can. At each of its discards it learns the set of
*dangerous* tiles and discards the best of the others (``rule``'s own valuation), a dangerous
tile only when every discard is one:

``exact``
    the tiles on which an opponent may legally declare a win if this seat discards them now
    (8 points and every other rule checked: the discard is played on a clone of the game and
    the opponents' masks are read);
``shape``
    every tile that completes an opponent's hand in shape (its waits, 8 points or not);
``ready``
    not which tiles are dangerous but *when*: the guarded seat keeps ``rule``'s own guess of
    each tile's danger, and its sense of the threat (how much danger weighs against the hand's
    value) is replaced by the truth: full (1.5, ``rule``'s largest) while some opponent's hand
    is ready in shape, none otherwise.

``--flip P`` makes the told tiles a noisy reading, to ask how sharp a fair reader of danger
must be before it pays: at each decision, each kind the seat may discard has its label
(dangerous or not) flipped with probability ``P``, independently (a reading whose AUC is
``1 - P``: it flags a dangerous tile with probability ``1 - P`` and a safe one with ``P``).

For each deal (seeds 900000 + ``--start`` ..., mcr rules, single hands) the four ``rule``
players play it once, then the guarded player takes each seat in turn against three ``rule``s;
the figure is the guarded seat's payment minus ``rule``'s in the same seat of the same deal,
averaged over the four seats and then over deals, with a normal 95% interval over deals, and
the win and deal-in rates of both. docs/training.md reports it.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence

import numpy as np
from benchkit import live_turns

from mjenv import raw_env
from mjenv.actions import DISCARD_BASE, WIN
from mjenv.engine import Game
from mjenv.engine.result import HandResult
from mjenv_agents.observation import Facts
from mjenv_agents.rule_based import MeldList, RuleBasedAgent

SEED_BASE = 900_000


def dangerous_tiles(game: Game, seat: int, waits: str) -> set[int]:
    """The discards of ``seat`` (now to discard) that an opponent could win on."""
    shape = {t for s in range(4) if s != seat for t in game.waiting_tiles(s)}
    if waits == "shape":
        return shape
    legal = set(game.legal_actions(seat))
    out = set()
    for t in shape:
        if DISCARD_BASE + t in legal:
            trial = game.clone()
            trial.step(seat, DISCARD_BASE + t)
            if any(WIN in trial.legal_actions(s) for s in trial.to_act() if s != seat):
                out.add(t)
    return out


class Guarded(RuleBasedAgent):
    """``rule``, never discarding a tile of ``danger`` while another discard is left."""

    def __init__(self) -> None:
        super().__init__()
        self.danger: set[int] = set()

    def _threat(self, f: Facts) -> float:
        return 1.0

    def _best_discard(self, counts: list[int], melds: MeldList, discards: Sequence[int]
                      ) -> tuple[int, float, bool]:
        safe = [t for t in set(discards) if t not in self.danger]
        return super()._best_discard(counts, melds, safe or list(discards))

    def _danger(self, f: Facts, t: int) -> float:
        return 0.0  # rule's own guess is replaced by the game's answer above


class TimelyGuarded(RuleBasedAgent):
    """``rule`` whose threat is the truth (``ready``: some opponent is ready), its own guess
    of each tile's danger kept (``--waits ready``)."""

    def __init__(self) -> None:
        super().__init__()
        self.ready = False

    def _threat(self, f: Facts) -> float:
        return 1.5 if self.ready else 0.0


def noisy(danger: set[int], held: Sequence[int], flip: float,
          rng: np.random.Generator) -> set[int]:
    """``danger`` as a reader with error rate ``flip`` reports it, over the kinds ``held``."""
    if flip <= 0:
        return danger
    return {t for t in held if (t in danger) != (rng.random() < flip)}


def play(seed: int, guarded: int | None, waits: str, flip: float = 0.0) -> HandResult:
    env = raw_env()
    rng = np.random.default_rng([seed, 0 if guarded is None else guarded])
    env.reset(seed=seed)
    guard = TimelyGuarded if waits == "ready" else Guarded
    players = [guard() if s == guarded else RuleBasedAgent() for s in range(4)]
    for s, player in enumerate(players):
        player.reset(s, seed=seed)
    for seat, obs in live_turns(env):
        player = players[seat]
        if isinstance(player, Guarded):
            assert env.game is not None
            held = [t for t in range(34) if env.game.hands[seat][t]]
            player.danger = noisy(dangerous_tiles(env.game, seat, waits), held, flip, rng)
        elif isinstance(player, TimelyGuarded):
            assert env.game is not None
            player.ready = any(env.game.waiting_tiles(s) for s in range(4) if s != seat)
        env.step(player.act(obs["observation"], obs["action_mask"]))
    assert env.game is not None and env.game.result is not None
    return env.game.result


def dealt_in(result: HandResult, seat: int) -> bool:
    return (result.winner is not None and result.winner != seat and result.from_seat == seat
            and not result.self_drawn)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=500, help="duplicate deals to play")
    p.add_argument("--start", type=int, default=0, help="first deal (seed 900000 + start)")
    p.add_argument("--waits", choices=("exact", "shape", "ready"), default="exact",
                   help="which tiles count as dangerous (see above)")
    p.add_argument("--flip", type=float, default=0.0,
                   help="chance that each told label is wrong (exact and shape; see above)")
    args = p.parse_args(argv)
    if args.deals < 2 or args.start < 0:
        p.error("--deals must be at least 2 and --start not negative")
    if not 0 <= args.flip <= 0.5 or (args.flip and args.waits == "ready"):
        p.error("--flip must be in 0..0.5, with --waits exact or shape")
    diffs: list[float] = []
    rates = {"rule win": 0, "rule deal-in": 0, "guarded win": 0, "guarded deal-in": 0}
    began = time.perf_counter()
    for deal in range(args.start, args.start + args.deals):
        seed = SEED_BASE + deal
        base = play(seed, None, args.waits)
        per_seat = []
        for seat in range(4):
            got = play(seed, seat, args.waits, args.flip)
            per_seat.append(got.payments[seat] - base.payments[seat])
            rates["rule win"] += base.winner == seat
            rates["rule deal-in"] += dealt_in(base, seat)
            rates["guarded win"] += got.winner == seat
            rates["guarded deal-in"] += dealt_in(got, seat)
        diffs.append(float(np.mean(per_seat)))
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    flip = f" --flip {args.flip:g}" if args.flip else ""
    print(f"--waits {args.waits}{flip}: {args.deals} deals from {args.start}: guarded - rule "
          f"{mean:+.2f} per hand [{mean - half:+.2f}, {mean + half:+.2f}]; "
          + ", ".join(f"{k} {v / (4 * args.deals):.1%}" for k, v in rates.items())
          + f" ({time.perf_counter() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
