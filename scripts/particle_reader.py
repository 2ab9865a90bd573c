"""Reading the other hands with a particle filter over each seat's draws (experiment for issue
18; the mcr rules).

The determinized search (scripts/search_agent.py) is only as good as its guess of the other
hands, and every guess made so far from what a seat sees ranks the dangerous discards about as
well as ``rule``'s own hand-written danger (AUC 0.68-0.70, docs/training.md). Those guesses
drew whole hands at once and at best weighted them afterwards; no sampled hand came near the
hands the other seats' decisions point to. The opponents in the 1-vs-3 evaluation are ``rule``
players, a known and deterministic policy, so the exact posterior would seem within reach of a
filter that builds each hand decision by decision. This one does not reach it: its particles
rank danger at chance (docs/training.md has the numbers and why). How it works:

* one :class:`HandFilter` per other seat holds ``particles`` guesses of that seat's concealed
  tiles, drawn at the deal from the tiles the observer has not seen;
* each of the seat's hidden draws is drawn for every particle from the tiles the observer has
  not seen and the particle does not hold; when the seat's next action shows a tile the
  particle lacks (a discard, an added kong, a self-drawn win), the draw must have been that
  tile, and the particle is weighted by the chance of drawing it (the optimal proposal for a
  hard constraint);
* at each of the seat's decisions (its discards and kongs, and every claim window on another
  seat's discard or added kong, including those where the real seat was not asked because it
  could do nothing) the particle's hand gives the seat's legal actions (mjenv.engine.legal,
  from the seat's facts with the particle's hand: :class:`Facts`) and its observation (the
  seat's real ``mjenv-v1`` observation with the hand, the drawn tile and the unseen counts put
  in), and ``rule`` is asked; a particle whose ``rule`` would have acted otherwise than the
  public events show is weighted by ``eps`` (0 where the real action is impossible with its
  hand). A window's answer shows only through its resolution: passing, a claim of lower
  priority than the one made, or the claim made (a particle without the claim's tiles is
  ruled out);
* every tile another seat shows (or the observer draws) weighs the particle by the copies it
  leaves for them;
* the particles are resampled (systematically) when their effective number falls below half;
* when the public events rule out every particle (a meld none could make, copies all of them
  held shown elsewhere), the hands are mended (the missing tiles swapped in, the excess out)
  rather than drawn afresh; when a turn rules out every one, the filter starts afresh.

Options: ``--adapt`` draws each hidden tile knowing the decision after it (every tile tried,
weighted by whether ``rule`` would then have acted as the seat did: slower, the same
posterior); ``--jitter`` lets each resampled copy swap one tile (roughening: keeps the copies
apart at the price of forgetting what the decisions said about that tile).

Approximations: each seat's filter ignores the other filters (two may hold the same copy),
the observer's unseen tiles are the draws' pool (copies in another hand count as drawable),
and the seat's own concealed kongs are shown to its observation and legal actions as they
really are (a concealed kong's kind is hidden from the observer; under 1 % of hands).

``python scripts/particle_reader.py --hands 60`` plays hands of four ``rule`` players (seeds
7000 onwards, as ``search_agent.py danger``), with one observer a hand (seat ``hand % 4``) and a
filter on each of its three opponents; at every discard decision of the observer with at most
45 tiles left it scores each legal discard by the filters' chance that another seat may win on
it (in shape, and legally: 8 points), beside ``rule``'s own danger penalty, by how well they
rank the discards another seat could really win on (AUC; 0.5 is chance). ``--truth`` runs the
filters with one particle that holds the real hand and draws the real tiles: it must depart
from no real decision (tests/test_particle_reader.py), which checks the observation and the
legal actions each particle is asked with. ``--truth --perturb M`` swaps ``M`` tiles of that
particle's starting hand and counts how often the public events rule the hand out, how often
``rule``'s decisions give it away, and how often it fits everything: how sharply the
decisions pin a hand down, whatever a filter can find.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt
from search_agent import _auc, wins_on
from tqdm import tqdm

from mjenv import actions as A
from mjenv.botzone.seat_legal import ViewFacts
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
from mjenv.engine.legal import claim_options, is_last_copy, play_actions, rob_options, win_fans
from mjenv.engine.rules import MCR, RuleConfig
from mjenv.engine.seat_view import SeatView
from mjenv.fans import InvalidHandError
from mjenv.vector.options import env_options
from mjenv.vector.slot import GameSlot
from mjenv_agents.observation import read_observation
from mjenv_agents.rule_based import RuleBasedAgent

T = 34
DRAWN_ROW, DECISION_ROW, UNSEEN_ROW = 4, 5, 8  # mjenv-v1 rows (mjenv.encoders.default)
WIN_LEGAL_AT = (85, 24)  # the scalar row's "Win is legal" cell
DEAD = -math.inf


def priority(action: int) -> int:
    """A claim's rank when answers meet (win > kong = pung > chow > pass)."""
    if action == A.WIN:
        return 3
    if A.PUNG_BASE <= action < A.CONCEALED_KONG_BASE:
        return 2
    if A.CHOW_BASE <= action < A.PUNG_BASE:
        return 1
    return 0


def claim_action(e: Event) -> int | None:
    """The action id of a claim event (None for any other event)."""
    if isinstance(e, Chow):
        return A.chow(e.tiles[0] + 1, e.claimed)
    if isinstance(e, Pung):
        return A.PUNG_BASE + e.tile
    if isinstance(e, Kong):
        return A.KONG_BASE + e.tile
    if isinstance(e, Win):
        return A.WIN
    return None


def from_hand(e: Event) -> list[int]:
    """The tiles a claim or a kong takes from its declarer's standing hand."""
    if isinstance(e, Chow):
        return [t for t in e.tiles if t != e.claimed]
    if isinstance(e, Pung):
        return [e.tile] * 2
    if isinstance(e, Kong):
        return [e.tile] * 3
    if isinstance(e, AddedKong):
        return [e.tile]
    return []


class Facts:
    """A seat's legality facts (mjenv.engine.legal.SeatFacts) frozen at one moment of the
    hand; :meth:`holding` puts a hand in."""

    def __init__(self, view: SeatView, rules: RuleConfig) -> None:
        live = ViewFacts(view, rules)
        self.seat = live.seat
        self.melds = list(live.melds)
        self.flowers = list(live.flowers)
        self.seat_wind = live.seat_wind
        self.prevalent_wind = live.prevalent_wind
        self.wall = live.wall
        self.visible = list(live.visible)
        self.hand: list[int] = []
        self.waits: list[int] = []

    def holding(self, hand: list[int], thirteen: list[int]) -> Facts:
        """These facts with ``hand`` standing (``thirteen`` its part before a draw)."""
        out = copy.copy(self)
        out.hand = hand
        out.waits = waiting_counts(thirteen, len(self.melds))
        return out


def mask_of(legal: Sequence[int]) -> npt.NDArray[np.int8]:
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[list(legal)] = 1
    return mask


def put_hand(base: npt.NDArray[np.float32], hidden: npt.NDArray[np.int64], hand: list[int],
             drawn: int, legal: Sequence[int]) -> npt.NDArray[np.float32]:
    """A seat's ``mjenv-v1`` observation ``base`` (encoded from its real view for a decision)
    with ``hand`` standing in place of its own, ``drawn`` (or -1) just drawn, and Win legal
    as ``legal`` says; ``hidden``: the copies of each kind the seat cannot see (its unseen plus
    its real hand)."""
    obs = base.copy()
    h = np.array(hand)
    for k in range(4):
        obs[k] = h > k
    if drawn >= 0:
        obs[DRAWN_ROW] = 0
        obs[DECISION_ROW] = 0
        obs[DRAWN_ROW, drawn] = obs[DECISION_ROW, drawn] = 1
    obs[UNSEEN_ROW] = (hidden - h) / 4
    obs[WIN_LEGAL_AT] = 1.0 if A.WIN in legal else 0.0
    return obs


def resolution(offer: Event, nxt: Event | None) -> tuple[int, int]:
    """How the claim window on ``offer`` (a discard, or an added kong to rob) was resolved,
    from the event after it: (the claimant, its action), or (-1, Pass) when nobody claimed."""
    made = claim_action(nxt) if nxt is not None else None
    if (made is not None and nxt is not None
            and getattr(nxt, "from_seat", None) == offer.seat
            and (not isinstance(offer, AddedKong) or (isinstance(nxt, Win) and nxt.robbed))):
        return nxt.seat, made
    return -1, A.PASS


def departs(answer: int, me: int, offerer: int, claimant: int, real: int) -> bool:
    """Whether ``me`` answering ``answer`` in a window is at odds with its resolution: it made
    the claim and answered otherwise, another seat's claim would have lost to its answer
    (priority, then order from the offerer for two wins), or nobody claimed and it did not
    pass."""
    if claimant == me:
        return answer != real
    if claimant >= 0:
        mine, theirs = priority(answer), priority(real)
        return mine > theirs or (mine == theirs == 3
                                 and (me - offerer) % 4 < (claimant - offerer) % 4)
    return answer != A.PASS


class Turn:
    """One turn of the filtered seat (a discard, a kong or a self-drawn win, in event ``e``),
    asked of many particles: ``rule``'s action for a standing hand and a draw, memoized (the
    copies of a resampled hand ask the same question)."""

    def __init__(self, f: HandFilter, e: Event) -> None:
        self.f = f
        self.kong = isinstance(e, ConcealedKong)
        self.need = -1 if self.kong else int(e.tile)  # type: ignore[attr-defined]
        self.real: int | None = (
            None if self.kong else A.DISCARD_BASE + self.need if isinstance(e, Discard) else
            A.ADDED_KONG_BASE + self.need if isinstance(e, AddedKong) else A.WIN)
        self.facts = Facts(f.view, f.rules)
        self.base, self.hidden = f._base([A.DISCARD_BASE])
        self.memo: dict[tuple[bytes, int], int] = {}

    def choice(self, hand: list[int], drawn: int) -> int:
        """``rule``'s action with ``hand`` standing and ``drawn`` drawn (-1: none); -2 where the
        real action is not even legal with them."""
        full = hand[:]
        if drawn >= 0:
            full[drawn] += 1
        key = (bytes(full), drawn)
        got = self.memo.get(key)
        if got is None:
            f = self.f
            try:
                legal = play_actions(self.facts.holding(full, hand), f.rules, drawn,
                                     f.kong_draw and drawn >= 0)
            except InvalidHandError:  # five copies with the seat's real concealed kong
                legal = []
            real = self.real
            got = -2 if real is not None and real not in legal else f._ask(
                full, drawn, legal, self.base, self.hidden)
            self.memo[key] = got
        return got

    def fits(self, got: int) -> bool:
        """Whether ``rule``'s action ``got`` is what the seat did."""
        if self.real is None:
            return A.CONCEALED_KONG_BASE <= got < A.ADDED_KONG_BASE
        return got == self.real


class HandFilter:
    """The particles of one seat's concealed hand, as an observer who sees only the public
    events (and its own tiles) may weigh them (see the module docstring). ``view`` is that
    seat's own view, fed every event by :meth:`feed`: the filter reads its public parts, and
    the hand only through the count of copies the seat cannot see (its unseen plus its hand:
    four less the copies face up to it). ``truth``: one particle, the real hand and draws."""

    def __init__(self, view: SeatView, observer_unseen: Sequence[int], particles: int,
                 eps: float, rng: np.random.Generator, rule: RuleBasedAgent,
                 encoder: SeatEncoder, rules: RuleConfig = MCR, truth: bool = False,
                 jitter: float = 0.0, adapt: bool = False, perturb: int = 0) -> None:
        self.view, self.rng, self.rule, self.encoder, self.rules = view, rng, rule, encoder, rules
        self.seat = view.seat
        self.log_eps = math.log(eps)
        self.truth = truth
        self.jitter = jitter
        self.adapt = adapt
        n = 1 if truth else particles
        self.logw = np.zeros(n)
        self.missed = np.zeros(n)  # per particle: the real decisions its rule departed from
        self.turns = 0  # the seat's own turns so far
        self.departures = 0  # real decisions a particle's rule departed from (summed)
        self.asked = 0  # times rule was asked for a particle
        self.mismatches = 0  # truth mode: observations the real hand changed (must be 0)
        self.lost = 0  # times every particle became impossible (the filter started afresh)
        self.mended = 0  # hands mended when the public events had ruled out every particle
        drawn = view.drawn
        standing = list(view.hand)
        if drawn >= 0:
            standing[drawn] -= 1
        # the hidden draws not yet placed (their tiles known only to the truth particle)
        self.pending: list[int] = [] if drawn < 0 else [drawn if truth else -1]
        self.kong_draw = False
        self.after_kong = False
        self.size = sum(standing)  # the particles' standing tiles (the pending draws apart)
        self.perturbed = truth and perturb > 0
        if truth:
            if perturb:
                self._swap(standing, perturb, observer_unseen)
            self.hands = [standing]
        else:
            self.hands = [self._sample(observer_unseen, sum(standing)) for _ in range(n)]

    # ---------------------------------------------------------------- the event stream
    def feed(self, e: Event, nxt: Event | None, unseen_before: Sequence[int],
             unseen_after: Sequence[int]) -> None:
        """Fold event ``e`` (``nxt`` the event after it, which resolves a claim window), with
        the observer's unseen counts before and after it."""
        if self.view.over:
            return
        me = self.seat
        if e.seat == me and (isinstance(e, (Discard, AddedKong, ConcealedKong))
                             or (isinstance(e, Win) and e.from_seat is None)):
            self._play(e, unseen_before)
        self.view.apply(e)
        if e.seat == me:
            if isinstance(e, Draw):
                self.pending.append(e.tile if self.truth else -1)
                self.kong_draw, self.after_kong = self.after_kong, False
            elif isinstance(e, Flower):
                self.after_kong = False
            elif isinstance(e, (Chow, Pung, Kong)):
                self._take(from_hand(e))
                self.after_kong = isinstance(e, Kong)
        else:
            shown = [a - b for a, b in zip(unseen_before, unseen_after, strict=True)]
            self._shown(unseen_before, shown)
            if isinstance(e, (Discard, AddedKong)):
                self._window(e, nxt)
        self._resample(unseen_after)

    # ---------------------------------------------------------------- weighing
    def _ask(self, hand: list[int], drawn: int, legal: Sequence[int],
             base: npt.NDArray[np.float32], hidden: npt.NDArray[np.int64]) -> int:
        """``rule``'s action with ``hand`` standing (and ``drawn`` just drawn, or -1): the seat's
        observation ``base`` (encoded once for the decision) with the hand put in."""
        obs = put_hand(base, hidden, hand, drawn, legal)
        self.asked += 1
        mask = mask_of(legal)
        if (self.truth and not self.perturbed
                and not np.array_equal(obs, self.encoder.encode(self.view, mask))):
            self.mismatches += 1  # the real hand put in must give the real observation
        return self.rule.act(obs, mask)

    def _base(self, legal: Sequence[int]) -> tuple[npt.NDArray[np.float32],
                                                   npt.NDArray[np.int64]]:
        """The seat's real observation now for a decision with ``legal`` actions, and its
        copies of each kind the seat cannot see (unseen plus standing: four less face up)."""
        v = self.view
        base = self.encoder.encode(v, mask_of(legal))
        hidden = np.array(v.unseen) + np.array(v.hand)
        return base, hidden

    def _play(self, e: Event, unseen: Sequence[int]) -> None:
        """The seat's own turn: draw for each particle what it must have drawn, ask ``rule``."""
        turn = Turn(self, e)
        need = turn.need
        self.turns += 1
        for i, hand in enumerate(self.hands):
            if self.logw[i] == DEAD:
                continue
            drawn = -1
            weighed = False  # the draw's proposal has weighed the decision already
            if self.pending:
                if self.truth:
                    drawn = self.pending[-1]
                elif self.adapt:
                    drawn = self._adapted_draw(i, hand, turn, unseen)
                    weighed = True
                else:
                    drawn = self._draw(i, hand, need, unseen)
                if drawn < 0:
                    continue
            full = hand[:]
            if drawn >= 0:
                full[drawn] += 1
            if need >= 0 and not full[need]:
                self.logw[i] = DEAD
                continue
            got = turn.choice(hand, drawn)
            if got == -2:
                self.logw[i] = DEAD
                continue
            if not turn.fits(got):
                if weighed:
                    self.departures += 1
                    self.missed[i] += 1
                else:
                    self._depart(i)
            kong = A.CONCEALED_KONG_BASE <= got < A.ADDED_KONG_BASE
            if isinstance(e, ConcealedKong):
                kind = got - A.CONCEALED_KONG_BASE if kong else next(
                    (t for t in range(T) if full[t] == 4), -1)
                if kind < 0:
                    self.logw[i] = DEAD
                    continue
                full[kind] -= 4
            elif isinstance(e, (Discard, AddedKong)):
                full[need] -= 1
            self.hands[i] = full
        self.size += len(self.pending) - (4 if isinstance(e, ConcealedKong) else
                                          1 if isinstance(e, (Discard, AddedKong)) else 0)
        self.pending = []
        self.after_kong = isinstance(e, (AddedKong, ConcealedKong))

    def _adapted_draw(self, i: int, hand: list[int], turn: Turn, unseen: Sequence[int]) -> int:
        """Particle ``i``'s hidden draw chosen knowing the decision that followed (``adapt``):
        every tile it could have drawn is tried, each weighted by its chance times 1 if
        ``rule`` would then have acted as the seat did (``eps`` otherwise); the draw is drawn
        in proportion and the particle weighted by the sum (the fully adapted proposal: the
        same posterior as :meth:`_draw`, with far fewer particles ruled out)."""
        left = np.maximum(np.array(unseen) - np.array(hand), 0)
        total = float(left.sum())
        need = turn.need
        kinds = [need] if need >= 0 and not hand[need] else [k for k in range(T) if left[k]]
        eps = math.exp(self.log_eps)
        mass = []
        for d in kinds:
            got = turn.choice(hand, d)
            mass.append(0.0 if got == -2 else float(left[d]) * (1.0 if turn.fits(got) else eps))
        whole = sum(mass)
        if whole <= 0 or total <= 0:
            self.logw[i] = DEAD
            return -1
        self.logw[i] += math.log(whole / total)
        return kinds[int(self.rng.choice(len(kinds), p=np.array(mass) / whole))]

    def _draw(self, i: int, hand: list[int], need: int, unseen: Sequence[int]) -> int:
        """Particle ``i``'s hidden draw: ``need`` if it lacks it (weighted by the chance of
        drawing it), else a copy drawn from the observer's unseen tiles it does not hold."""
        left = np.maximum(np.array(unseen) - np.array(hand), 0)
        total = left.sum()
        if need >= 0 and not hand[need]:
            if not left[need]:
                self.logw[i] = DEAD
                return -1
            self.logw[i] += math.log(left[need] / total)
            return need
        return int(self.rng.choice(T, p=left / total))

    def _window(self, offer: Discard | AddedKong, nxt: Event | None) -> None:
        """Another seat's discard (or added kong): what would each particle's ``rule`` have
        answered, and does that fit the window's resolution ``nxt``?"""
        me, v = self.seat, self.view
        t, discarder, rob = offer.tile, offer.seat, isinstance(offer, AddedKong)
        claimant, real = resolution(offer, nxt)
        seat = Facts(v, self.rules)  # the seat's facts now, a hand put in per particle
        base: tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]] | None = None
        memo: dict[bytes, tuple[list[int] | None, int]] = {}
        for i, hand in enumerate(self.hands):
            if self.logw[i] == DEAD:
                continue
            key = bytes(hand)
            got = memo.get(key)
            if got is None:
                facts = seat.holding(hand, hand)
                try:
                    found = (rob_options([facts], self.rules, t) if rob else
                             claim_options([facts], self.rules, t, discarder))[0].get(me)
                except InvalidHandError:  # five copies with the seat's real concealed kong
                    found = None
                answer = A.PASS
                if found is not None:
                    if base is None:
                        base = self._base(found)
                    answer = self._ask(hand, -1, found, *base)
                got = memo[key] = (found, answer)
            # (a particle without the tiles of the seat's claim is ruled out by _take)
            if departs(got[1], me, discarder, claimant, real):
                self._depart(i)

    def _take(self, tiles: list[int]) -> None:
        """The seat melded ``tiles`` from its hand: every particle must have held them. If
        none did, each is mended instead (:meth:`_mend`)."""
        self.size -= len(tiles)
        alive = [i for i in range(len(self.hands)) if self.logw[i] != DEAD]
        fits = [i for i in alive if all(self.hands[i][t] >= tiles.count(t) for t in tiles)]
        if alive and not fits and not self.truth:
            for i in alive:
                self._mend(self.hands[i], tiles)
            fits = alive
        for i in alive:
            if i in fits:
                for t in tiles:
                    self.hands[i][t] -= 1
            else:
                self.logw[i] = DEAD

    def _shown(self, unseen: Sequence[int], shown: Sequence[int]) -> None:
        """Copies other seats (or the observer's draws) showed: each copy shown of kind ``k``
        was one of the ``unseen[k] - hand[k]`` the particle leaves for them. If that rules out
        every particle, each gives up its excess copies instead (:meth:`_mend`)."""
        kinds = [k for k in range(T) if shown[k] > 0]
        if not kinds:
            return
        before = self.logw.copy()
        for i, hand in enumerate(self.hands):
            if self.logw[i] == DEAD:
                continue
            for k in kinds:
                for j in range(shown[k]):
                    free = unseen[k] - j - hand[k]
                    if free <= 0:
                        self.logw[i] = DEAD
                        break
                    self.logw[i] += math.log(free / (unseen[k] - j))
                if self.logw[i] == DEAD:
                    break
        if self.logw.max() == DEAD and before.max() != DEAD and not self.truth:
            self.logw = before
            after = [unseen[k] - shown[k] for k in range(T)]
            for i, hand in enumerate(self.hands):
                if before[i] != DEAD:
                    excess = [k for k in kinds for _ in range(max(hand[k] - after[k], 0))]
                    for k in excess:
                        hand[k] -= 1
                    self._mend(hand, [], len(excess), after)

    def _mend(self, hand: list[int], needed: list[int], extra: int = 0,
              unseen: Sequence[int] | None = None) -> None:
        """Make ``hand`` hold ``needed`` by swapping out random other tiles, or add ``extra``
        tiles from ``unseen`` (less what it holds): a repair when the public events have ruled
        out every particle, which keeps what the earlier decisions taught about the rest of the
        hand instead of starting afresh (a heuristic, counted in ``mended``)."""
        self.mended += 1
        for t in needed:
            if hand[t] < needed.count(t):
                spare = [k for k in range(T) if hand[k] and k not in needed]
                if spare:
                    hand[spare[int(self.rng.integers(len(spare)))]] -= 1
                hand[t] += 1
        for _ in range(extra):
            assert unseen is not None
            free = np.maximum(np.array(unseen) - np.array(hand), 0).astype(np.float64)
            if free.sum() <= 0:
                return
            hand[int(self.rng.choice(T, p=free / free.sum()))] += 1

    def _swap(self, hand: list[int], count: int, unseen: Sequence[int]) -> None:
        """Swap ``count`` random tiles of ``hand`` for kinds the observer has not seen and the
        hand does not hold: the real hand made slightly wrong (``--perturb``)."""
        for _ in range(count):
            if not self._swap_one(hand, unseen, new_kind=True):
                return

    def _swap_one(self, hand: list[int], unseen: Sequence[int], new_kind: bool) -> bool:
        """Swap a random tile of ``hand`` (by count) for a copy the observer has not seen and
        the hand leaves free, of another kind (``new_kind``: of a kind the hand does not
        hold); False, and ``hand`` unchanged, when there is none."""
        held = np.array(hand, dtype=np.float64)
        out = int(self.rng.choice(T, p=held / held.sum()))
        free = np.maximum(np.array(unseen) - np.array(hand), 0).astype(np.float64)
        free[[k for k in range(T) if hand[k]] if new_kind else out] = 0
        if free.sum() <= 0:
            return False
        hand[out] -= 1
        hand[int(self.rng.choice(T, p=free / free.sum()))] += 1
        return True

    def fits_all(self) -> bool:
        """Truth mode: the particle is still possible and has departed from no decision."""
        return bool(self.logw[0] != DEAD and self.missed[0] == 0)

    def _depart(self, i: int) -> None:
        self.logw[i] += self.log_eps
        self.departures += 1
        self.missed[i] += 1

    def _resample(self, unseen: Sequence[int]) -> None:
        if self.truth:
            return
        logw = self.logw
        top = logw.max()
        if top == DEAD:  # every particle impossible: start afresh from the prior
            self.lost += 1
            self.hands = [self._sample(unseen, self.size) for _ in self.hands]
            self.logw[:] = 0.0
            self.missed[:] = 0.0
            return
        w = np.exp(logw - top)
        w /= w.sum()
        if 1.0 / float(np.sum(w * w)) >= len(w) / 2:
            return
        n = len(w)
        picks = np.searchsorted(np.cumsum(w), (self.rng.random() + np.arange(n)) / n)
        picks = np.minimum(picks, n - 1)
        self.hands = [self.hands[p][:] for p in picks]
        self.missed = self.missed[picks]
        self.logw[:] = 0.0
        if self.jitter:
            self._roughen(unseen)

    def _roughen(self, unseen: Sequence[int]) -> None:
        """After a resampling, every particle but the first copy of each swaps one standing
        tile for one the observer has not seen, with chance ``jitter``: copies of one hand
        would otherwise stay alike in every tile no decision has shown yet, and a later
        reveal would kill them all at once. The swap forgets the old evidence on that tile
        (the past decisions are not asked again): a heuristic, not the exact posterior."""
        first: set[bytes] = set()
        for hand in self.hands:
            key = bytes(hand)
            if key not in first:
                first.add(key)
                continue
            if self.rng.random() < self.jitter:
                self._swap_one(hand, unseen, new_kind=False)

    def _sample(self, unseen: Sequence[int], size: int) -> list[int]:
        pool = [k for k in range(T) for _ in range(unseen[k])]
        hand = [0] * T
        for t in self.rng.choice(pool, size=size, replace=False):
            hand[int(t)] += 1
        return hand

    # ---------------------------------------------------------------- reading
    def fewest_missed(self) -> int:
        """The fewest real decisions a live particle's ``rule`` departed from (since the
        filter last started afresh, if it did)."""
        return int(self.missed[self.logw != DEAD].min())

    def overlap(self, real: Sequence[int]) -> float:
        """The tiles a particle shares with ``real`` (the seat's real standing tiles: for a
        measurement only), averaged over the particles by weight."""
        return float(sum(w * sum(map(min, hand, real))
                         for w, hand in zip(self.weights(), self.hands, strict=True) if w))

    def _wins(self, facts: Facts, hand: list[int], t: int) -> bool:
        """Whether ``hand`` may legally win on the observer's discard ``t``."""
        try:
            return win_fans(facts, self.rules, hand, t, self_drawn=False,
                            last_copy=is_last_copy(facts.visible[t], hand[t]),
                            last_tile=self.view.tiles_left == 0, kong_win=False) is not None
        except InvalidHandError:  # five copies with the seat's real concealed kong
            return False

    def weights(self) -> npt.NDArray[np.float64]:
        w = np.exp(self.logw - self.logw.max())
        return w / w.sum()

    def danger(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """For each kind, the filter's chance that the seat's hand completes on it: in shape,
        and as a legal win on the observer's discard (8 points)."""
        v = self.view
        seat = Facts(v, self.rules)  # the seat's facts now, a hand put in per particle
        shape, legal = np.zeros(T), np.zeros(T)
        memo: dict[bytes, tuple[list[int], list[int]]] = {}
        for w, hand in zip(self.weights(), self.hands, strict=True):
            if not w:
                continue  # ruled out: its hand was not kept up
            key = bytes(hand)
            got = memo.get(key)
            if got is None:
                facts = seat.holding(hand, hand)
                waits = facts.waits
                wins = [t for t in waits if hand[t] < 4 and self._wins(facts, hand, t)]
                got = memo[key] = (list(waits), wins)
            shape[got[0]] += w
            legal[got[1]] += w
        return shape, legal


COLUMNS = ("dangerous", "filter shape", "filter legal", "rule", "rule x filter shape")


def score_discards(rule: RuleBasedAgent, game: Game, seat: int, legal: list[int],
                   seen: dict[str, Any], estimates: list[npt.NDArray[np.float64]],
                   ) -> list[tuple[float, ...]]:
    """A row per legal discard of ``seat``: whether another seat may really win on it, each
    estimate's chance (by tile kind; the first one a shape estimate), ``rule``'s own danger
    penalty (its danger score times its threat, read as scripts/defence_oracle.py does), and
    that penalty times the first estimate plus 0.05."""
    facts = read_observation(seen["observation"])
    threat = rule._threat(facts)
    rows = []
    for a in legal:
        if A.DISCARD_BASE <= a < A.CHOW_BASE:
            t = a - A.DISCARD_BASE
            penalty = threat * rule._danger(facts, t)
            rows.append((float(wins_on(game, seat, a)), *[float(e[t]) for e in estimates],
                         penalty, penalty * (float(estimates[0][t]) + 0.05)))
    return rows


def print_aucs(rows: npt.NDArray[np.float64], columns: Sequence[str]) -> None:
    """Each estimate's AUC against the first column (really dangerous)."""
    labels = rows[:, 0] > 0
    for k, name in enumerate(columns[1:], start=1):
        print(f"  {name:<22} AUC {_auc(labels, rows[:, k]):.3f}")


F = TypeVar("F", bound="Follower")


class Follower(Protocol):
    """What follows one seat through a hand for an observer (a filter, a recorder)."""

    def feed(self, e: Event, nxt: Event | None, before: Sequence[int],
             after: Sequence[int]) -> None: ...


def play_hand(slot: GameSlot, seed: int, watcher: int, rule: RuleBasedAgent,
              follow: Callable[[SeatView, list[int]], F],
              reading: Callable[[Game, int, list[int], dict[str, Any], list[F], SeatView], None]
              | None = None) -> list[F]:
    """Play hand ``seed`` with four ``rule`` players; ``follow(view, observer_unseen)`` makes a
    follower of each seat other than ``watcher`` (its own view, caught up with the deal), fed
    every event with the event after it and the observer's unseen counts before and after; at
    each decision of the observer, ``reading(game, seat, legal, observation, followers, its
    view)``. Returns the followers."""
    slot.start(seed)
    game = slot.game
    assert game is not None

    def fresh(seat: int) -> SeatView:
        v = SeatView(seat, dealer=game.dealer, prevalent_wind=game.prevalent_wind,
                     num_tiles=game.rules.num_tiles)
        v.extend(game.events)
        return v

    mine = fresh(watcher)
    followers = [follow(fresh(s), mine.unseen) for s in range(4) if s != watcher]
    done = len(game.events)
    while not slot.over:
        seat = slot.seat
        legal = list(slot.legal(seat))
        seen = slot.observe(seat) if len(legal) > 1 else None
        if seen is not None and seat == watcher and reading is not None:
            reading(game, seat, legal, seen, followers, mine)
        slot.step(legal[0] if seen is None else rule.act(seen["observation"],
                                                         seen["action_mask"]))
        events = game.events
        # a discard's window is resolved by the event after it: hold the last one back while
        # the hand goes on
        upto = len(events) if slot.over else len(events) - 1
        for i in range(done, upto):
            e = events[i]
            before = list(mine.unseen)
            mine.apply(e)
            for f in followers:
                f.feed(e, events[i + 1] if i + 1 < len(events) else None, before, mine.unseen)
        done = max(done, upto)
    return followers


def measure(hands: int, particles: int = 128, eps: float = 0.02, start: int = 7000,
            late: int = 45, truth: bool = False, jitter: float = 0.0, adapt: bool = False,
            perturb: int = 0, progress: bool = True,
            ) -> tuple[npt.NDArray[np.float64], dict[str, float]]:
    """Play ``hands`` hands of four ``rule`` players with the filters on (see the module
    docstring); returns a row per scored discard (``COLUMNS``) and the filters' counts:
    decisions departed from (summed over particles), restarts, decisions weighed."""
    rule = RuleBasedAgent()
    encoder = make_encoder("mjenv-v1", MCR)
    slot = GameSlot(env_options({"rules": "mcr"}))
    rng = np.random.default_rng(start)
    rows: list[tuple[float, ...]] = []
    counts = {"departures": 0.0, "lost": 0.0, "mended": 0.0, "asked": 0.0, "mismatches": 0.0,
              "seat-hands": 0.0, "ruled out": 0.0, "unnoticed": 0.0}
    noticed: list[float] = []  # truth mode: departures of each possible hand that departed
    means: dict[str, list[float]] = {"overlap filter": [], "overlap uniform": []}
    medians: dict[str, list[float]] = {"fewest missed": [], "own turns": []}
    def follow(view: SeatView, unseen: list[int]) -> HandFilter:
        return HandFilter(view, unseen, particles, eps, rng, rule, encoder, truth=truth,
                          jitter=jitter, adapt=adapt, perturb=perturb)

    def read(game: Game, seat: int, legal: list[int], seen: dict[str, Any],
             filters: list[HandFilter], mine: SeatView) -> None:
        if game.wall.remaining > late or A.WIN in legal or A.PASS in legal or truth:
            return
        reads = [f.danger() for f in filters]
        for f in filters:  # how much of the real hand the filter holds (a check)
            real = game.hands[f.seat]
            guess = f._sample(mine.unseen, f.size)
            means["overlap filter"].append(f.overlap(real))
            means["overlap uniform"].append(sum(map(min, guess, real)))
            medians["fewest missed"].append(f.fewest_missed())
            medians["own turns"].append(f.turns)
        rows.extend(score_discards(rule, game, seat, legal, seen,
                                   [1 - np.prod([1 - r[k] for r in reads], axis=0)
                                    for k in (0, 1)]))

    for h in tqdm(range(hands), desc="particle reader", unit="hand", disable=not progress):
        filters = play_hand(slot, start + h, h % 4, rule, follow, read)
        for f in filters:
            for name in ("departures", "lost", "mended", "asked", "mismatches"):
                counts[name] += getattr(f, name)
            counts["seat-hands"] += 1
            if truth:
                counts["ruled out"] += f.logw[0] == DEAD
                counts["unnoticed"] += f.fits_all()
                if f.logw[0] != DEAD and f.missed[0]:
                    noticed.append(float(f.missed[0]))
    counts["departures when noticed"] = float(np.median(noticed)) if noticed else float("nan")
    for name, got in means.items():
        counts[name] = float(np.mean(got)) if got else float("nan")
    for name, got in medians.items():
        counts[name] = float(np.median(got)) if got else float("nan")
    return np.array(rows, dtype=np.float64).reshape(-1, len(COLUMNS)), counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20, help="hands of four rule players")
    parser.add_argument("--start", type=int, default=7000, help="the first hand's seed")
    parser.add_argument("--particles", type=int, default=128, help="particles per seat")
    parser.add_argument("--eps", type=float, default=0.02,
                        help="weight of a particle whose rule would have decided otherwise")
    parser.add_argument("--late", type=int, default=45,
                        help="score the observer's discards with at most this many tiles left")
    parser.add_argument("--truth", action="store_true",
                        help="one particle with the real hand and draws: counts departures")
    parser.add_argument("--perturb", type=int, default=0,
                        help="with --truth: swap this many tiles of each real starting hand "
                             "(how many such hands still fit every real decision?)")
    parser.add_argument("--jitter", type=float, default=0.0,
                        help="chance that a resampled copy swaps a tile (roughening)")
    parser.add_argument("--adapt", action="store_true",
                        help="draw each hidden tile knowing the decision after it (slower)")
    parser.add_argument("--out", default=None, help="an .npz file to keep every row")
    args = parser.parse_args(argv)
    if (args.hands < 1 or args.particles < 1 or not 0 < args.eps <= 1 or args.start < 0
            or args.perturb < 0 or (args.perturb and not args.truth)):
        parser.error("--hands >= 1, --particles >= 1, 0 < --eps <= 1, --start >= 0, and "
                     "--perturb >= 0 only with --truth")
    rows, counts = measure(args.hands, args.particles, args.eps, args.start, args.late,
                           args.truth, args.jitter, args.adapt, args.perturb)
    if args.perturb:
        n = counts["seat-hands"]
        rest = 1 - (counts["ruled out"] + counts["unnoticed"]) / n
        print(f"{args.perturb} tile(s) of each real starting hand swapped, {int(n)} seat-hands: "
              f"{counts['ruled out'] / n:.1%} ruled out by the public events (a discard or meld "
              f"the hand could not make), {counts['unnoticed'] / n:.1%} fit every real "
              f"decision, {rest:.1%} departed from some ({counts['departures when noticed']:.0f}"
              ", median)")
        return 0
    if args.truth:
        print(f"the real hands depart from {int(counts['departures'])} of "
              f"{int(counts['asked'])} real decisions; {int(counts['mismatches'])} observations "
              "differ from the real ones")
        return 0 if counts["departures"] == counts["mismatches"] == 0 else 1
    if args.out:
        np.savez(args.out, rows=rows, columns=np.array(COLUMNS))
    if not len(rows):
        print("no discard of the observer was scored (the hands ended early)")
        return 0
    labels = rows[:, 0] > 0
    print(f"{len(rows)} discards, {labels.mean():.1%} of them another seat could win on; "
          f"AUC (0.5: chance) below; filters started afresh {int(counts['lost'])} times, mended "
          f"{int(counts['mended'])} hands")
    print(f"  tiles of an other seat's real hand a particle holds, by weight: "
          f"{counts['overlap filter']:.2f} (a uniform guess: {counts['overlap uniform']:.2f})")
    print(f"  the best-fitting particle departs from {counts['fewest missed']:.0f} of the seat's "
          f"real decisions (median; the seat has had {counts['own turns']:.0f} turns)")
    print_aucs(rows, COLUMNS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
