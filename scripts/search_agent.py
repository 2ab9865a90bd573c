"""A determinized-search player over ``rule`` (experiment for issue 18; the mcr rules).

At a discard decision with a real choice, ``SearchAgent`` compares ``rule``'s own discard with
the next best discards by shanten and useful tiles: in each of ``worlds`` hands sampled from
what its seat has seen (mjenv.engine.determinize.sample_game: the other hands and the wall
drawn at random), every candidate is played and the hand finished with ``rule`` in every seat.
It departs from ``rule``'s choice only when an alternative's mean payment over the same worlds
beats it by more than ``margin`` standard errors of the paired difference (``margin=0``: any
gain). Elsewhere (claims, wins, kongs) it plays ``rule``.

Options (spec ``key=value``): ``worlds`` sampled hands per decision, ``candidates`` how many
discards by shanten and useful tiles (``rule``'s own first), ``margin``, ``late`` search only
with at most this many tiles left in the wall, ``prior`` how the other hands are drawn
(``uniform``: every arrangement of the unseen tiles; ``ready``: as far from ready as ``rule``
players' hands are at that stage, :data:`READY_PRIOR`), ``passed`` (with ``ready``: a ready
hand never waits on a tile its seat let go since its last discard: ``rule`` always wins when it
may), ``safe`` (add the discard the fewest sampled hands could win on), ``seed``.

    PYTHONPATH=scripts mjenv arena --agents \\
        "search_agent:SearchAgent worlds=16 candidates=2 late=45 margin=1 prior=ready" rule \\
        --deals 150 --seed 7 --workers 2 --out runs/search

``python scripts/search_agent.py danger --hands 25`` measures what the sampled hands know about
danger: four ``rule`` players play ``--hands`` hands (seeds 7000 onwards); at every discard
decision with at most 45 tiles left, each legal discard gets its share of 16 sampled hands
(per prior) in which another seat may win on it, and ``rule``'s own danger score (its danger
times its threat, the penalty it weighs); each is scored by how well it ranks the discards
another seat could really win on (AUC: 0.5 is chance). docs/training.md reports both. With
``--weigh`` the ready prior's estimates are also weighted by how well each sampled hand fits the
other seats' real decisions (:func:`departures`: ``rule`` asked at each of them in the sampled
hand), a tempered posterior; docs/training.md reports that too.

``python scripts/search_agent.py oracle --deals 100`` plays the same search told the other
seats' real concealed tiles (only the wall is sampled), 1-vs-3 against ``rule`` on duplicate
deals (each deal's four seatings, paired with four ``rule`` players on the same deal): the
ceiling of any prior over the other hands, for this search.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from rollout_teacher import Teacher
from tqdm import tqdm

from mjenv.actions import CHOW_BASE, DISCARD_BASE, PASS, WIN
from mjenv.decompose import waiting_counts
from mjenv.engine.determinize import (
    HandSampler,
    KongSampler,
    sample_game,
    uniform_hands,
    uniform_kongs,
)
from mjenv.engine.events import AddedKong, ConcealedKong, Discard, Event, view
from mjenv.engine.game import Game
from mjenv.engine.rules import MCR
from mjenv.engine.seat_view import SeatView
from mjenv.shanten import discard_outcomes, shanten_counts
from mjenv.vector.options import env_options
from mjenv.vector.slot import GameSlot, new_hand
from mjenv_agents.observation import Facts, read_observation
from mjenv_agents.rule_based import RuleBasedAgent

READY_PRIOR: dict[tuple[int, int], tuple[float, float, float, float]] = {
    (0, 0): (0.347, 0.614, 0.039, 0.0), (0, 1): (0.388, 0.612, 0.0, 0.0),
    (0, 2): (0.669, 0.331, 0.0, 0.0), (1, 0): (0.359, 0.529, 0.098, 0.014),
    (1, 1): (0.37, 0.601, 0.029, 0.0), (1, 2): (0.599, 0.401, 0.0, 0.0),
    (2, 0): (0.286, 0.53, 0.171, 0.013), (2, 1): (0.339, 0.585, 0.076, 0.0),
    (2, 2): (0.544, 0.456, 0.0, 0.0), (3, 0): (0.129, 0.53, 0.283, 0.058),
    (3, 1): (0.163, 0.64, 0.195, 0.002), (3, 2): (0.275, 0.674, 0.051, 0.0),
    (4, 0): (0.04, 0.295, 0.459, 0.206), (4, 1): (0.05, 0.462, 0.402, 0.086),
    (4, 2): (0.141, 0.658, 0.201, 0.0), (5, 0): (0.004, 0.069, 0.267, 0.66),
    (5, 1): (0.01, 0.154, 0.484, 0.352), (5, 2): (0.062, 0.75, 0.188, 0.0),
    (6, 0): (0.0, 0.022, 0.044, 0.934), (6, 1): (0.0, 0.022, 0.044, 0.934),
    (6, 2): (0.0, 0.022, 0.044, 0.934),
}
"""How far from ready (shanten 0, 1, 2, 3+) a ``rule`` player's hand is, by (tiles left // 15,
capped at 6; its melds, capped at 2): 120 hands of four ``rule`` players (seeds 5000-5119),
every other seat at every discard decision."""


def _draw(left: list[int], rng: np.random.Generator) -> int:
    kinds = [t for t in range(len(left)) if left[t]]
    t = kinds[int(rng.integers(len(kinds)))]
    left[t] -= 1
    return t


def _complete(left: list[int], sets: int, rng: np.random.Generator) -> list[int] | None:
    """A pair and ``sets`` chows or pungs drawn from ``left`` (changed), or None."""
    pairs = [t for t in range(34) if left[t] >= 2]
    if not pairs:
        return None
    t = pairs[int(rng.integers(len(pairs)))]
    left[t] -= 2
    tiles = [t, t]
    for _ in range(sets):
        chows = [t for t in range(27) if t % 9 <= 6 and left[t] and left[t + 1] and left[t + 2]]
        pungs = [t for t in range(34) if left[t] >= 3]
        if chows and (not pungs or rng.random() < 0.7):
            t = chows[int(rng.integers(len(chows)))]
            for x in (t, t + 1, t + 2):
                left[x] -= 1
            tiles += [t, t + 1, t + 2]
        elif pungs:
            t = pungs[int(rng.integers(len(pungs)))]
            left[t] -= 3
            tiles += [t, t, t]
        else:
            return None
    return tiles


def _efficient(counts: list[int], n_melds: int, shanten: int, tile: int) -> bool:
    """Whether discarding ``tile`` from ``counts`` plus ``tile`` keeps the best shanten."""
    counts[tile] += 1
    best = min(s for _, s in discard_outcomes(counts, n_melds, False)[0])
    counts[tile] -= 1
    return shanten <= best


def _hand_at(target: int, n: int, n_melds: int, left: list[int], rng: np.random.Generator,
             passed: frozenset[int] = frozenset(), last: int = -1) -> list[int] | None:
    """``n`` concealed tiles at shanten ``target`` drawn from ``left`` (changed only when found);
    a ready hand waits on none of the tiles in ``passed``; discarding ``last`` (the seat's
    latest discard, if >= 0) from the hand with it kept the best shanten."""
    for _ in range(20):
        c = left[:]
        tiles = _complete(c, (n - 1) // 3, rng)
        if tiles is None:
            continue
        order = rng.permutation(len(tiles))
        kept = [tiles[int(i)] for i in order[target + 1:]]
        for i in order[:target + 1]:
            c[tiles[int(i)]] += 1
        kept += [_draw(c, rng) for _ in range(target)]
        counts = [0] * 34
        for t in kept:
            counts[t] += 1
        if shanten_counts(counts, n_melds) == target and not (
                target == 0 and passed.intersection(waiting_counts(counts, n_melds))) and (
                last < 0 or _efficient(counts, n_melds, target, last)):
            left[:] = c
            return kept
    return None


def ready_hands(tiles_left: int, melds: dict[int, int],
                passed: dict[int, frozenset[int]] | None = None,
                last: dict[int, int] | None = None) -> HandSampler:
    """A prior over the other hands as far from ready as ``rule`` players' hands are at this
    stage (:data:`READY_PRIOR`); a seat drawn at shanten 3+ gets uniform tiles. ``passed[s]``:
    tiles seat ``s`` let go since its hand last changed (a ``rule`` player always wins when it
    may, so a ready hand of ``s`` waits on none of them). ``last[s]``: the tile ``s`` discarded
    last, which a ``rule`` player lets go only when its hand keeps the best shanten without
    it."""
    def sample(unseen: list[int], sizes: dict[int, int],
               rng: np.random.Generator) -> dict[int, list[int]]:
        left = unseen[:]
        out: dict[int, list[int]] = {}
        for s, n in sizes.items():
            p = READY_PRIOR[(min(tiles_left // 15, 6), min(melds[s], 2))]
            target = int(rng.choice(4, p=np.array(p) / sum(p)))
            hand = (_hand_at(target, n, melds[s], left, rng,
                             (passed or {}).get(s, frozenset()), (last or {}).get(s, -1))
                    if target < 3 else None)
            out[s] = hand if hand is not None else [_draw(left, rng) for _ in range(n)]
        return out
    return sample


def _passed(events: Sequence[Event]) -> dict[int, frozenset[int]]:
    """For each seat, the tiles the others discarded (or added to a kong) since its own last
    discard: the ones it could have won on with its hand as it stands."""
    out: dict[int, set[int]] = {s: set() for s in range(4)}
    for e in events:
        if isinstance(e, Discard):
            out[e.seat] = set()
        if isinstance(e, (Discard, AddedKong)):
            for s in range(4):
                if s != e.seat:
                    out[s].add(e.tile)
    return {s: frozenset(tiles) for s, tiles in out.items()}


def _last_discards(events: Sequence[Event]) -> dict[int, int]:
    """Each seat's latest discard (seats that have not discarded are left out)."""
    return {e.seat: e.tile for e in events if isinstance(e, Discard)}


class SeenHand:
    """What a seat has seen of the hand so far (the events, as the arena's ``observe_events``
    hook hands them over, and its latest view), and the rng its samples draw from."""

    def __init__(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)
        self.events: list[Event] = []
        self.view: SeatView | None = None

    def start(self, seed: int | None) -> None:
        """A new hand (a new rng only when ``seed`` is given)."""
        self.events = []
        self.view = None
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def add(self, events: Sequence[Event], view: SeatView) -> None:
        self.events.extend(events)
        self.view = view


class SearchAgent:
    """See the module docstring."""

    def __init__(self, worlds: int = 8, candidates: int = 3, margin: float = 0.0,
                 late: int = 144, prior: str = "uniform", passed: bool = False,
                 last: bool = False, safe: bool = False, seed: int | None = None) -> None:
        if int(worlds) < 2 or int(candidates) < 2 or prior not in ("uniform", "ready"):
            raise ValueError("search_agent: worlds >= 2, candidates >= 2 and prior 'uniform' or "
                             f"'ready', got worlds={worlds!r} candidates={candidates!r} "
                             f"prior={prior!r}")
        self.passed = bool(passed)
        self.last = bool(last)
        self.safe = bool(safe)
        self.late = int(late)
        self.prior = prior
        self.worlds = int(worlds)
        self.candidates = int(candidates)
        self.margin = float(margin)
        self.rules = MCR  # the rollouts (rollout_teacher.Teacher) play the mcr rules
        self.rule = RuleBasedAgent()
        self.teacher = Teacher()  # finishes a hand with rule in every seat
        self.hands_override: HandSampler | None = None
        """A prior that replaces ``prior`` (:func:`oracle` sets the real hands)."""
        self.kongs_override: KongSampler | None = None
        """A prior over hidden concealed kongs' kinds (:func:`oracle` sets the real ones)."""
        self.seen = SeenHand(seed)
        self.seat = 0

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat
        self.seen.start(seed)
        self.rule.reset(seat, seed)

    def observe_events(self, events: Sequence[Event], view: SeatView) -> None:
        self.seen.add(events, view)

    def act(self, observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
        choice = self.rule.act(observation, action_mask)
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        view = self.seen.view
        if (len(legal) < 2 or WIN in legal or PASS in legal or view is None
                or not any(DISCARD_BASE <= a < CHOW_BASE for a in legal)):
            return choice
        if view.tiles_left > self.late:
            return choice
        cands = self._candidates(observation, legal, choice)
        if len(cands) < 2:
            return choice
        events = self.seen.events
        hands = self.hands_override or (
            ready_hands(view.tiles_left, {s: len(view.melds[s]) for s in range(4)},
                        _passed(events) if self.passed else None,
                        _last_discards(events) if self.last else None)
            if self.prior == "ready" else uniform_hands)
        worlds: list[Game] = []
        for _ in range(self.worlds):
            worlds.append(sample_game(events, self.seat, self.seen.rng, rules=self.rules,
                                      dealer=view.dealer, prevalent_wind=view.prevalent_wind,
                                      hands=hands, kongs=self.kongs_override or uniform_kongs))
        if self.safe:
            safest = self._safest(worlds, [a for a in legal if DISCARD_BASE <= a < CHOW_BASE])
            if safest not in cands:
                cands.append(safest)
        values = np.zeros((self.worlds, len(cands)))
        for w, world in enumerate(worlds):
            for i, a in enumerate(cands):
                trial = world.clone()
                trial.step(self.seat, a)
                values[w, i] = self._finish(trial)
        gains = values[:, 1:] - values[:, :1]
        mean = gains.mean(axis=0)
        best = int(np.argmax(mean))
        error = gains[:, best].std(ddof=1) / np.sqrt(self.worlds)
        if mean[best] > 0 and mean[best] > self.margin * error:
            return cands[best + 1]
        return choice

    def _safest(self, worlds: list[Game], discards: list[int]) -> int:
        """The discard the fewest worlds let another seat win on (ties: the first)."""
        danger = []
        for a in discards:
            hits = 0
            for world in worlds:
                trial = world.clone()
                trial.step(self.seat, a)
                hits += any(WIN in trial.legal(s) for s in trial.to_act())
            danger.append(hits)
        return discards[int(np.argmin(danger))]

    def _candidates(self, observation: npt.NDArray[np.float32], legal: list[int],
                    choice: int) -> list[int]:
        facts = read_observation(observation)
        after, useful = discard_outcomes(list(facts.hand), facts.n_melds)
        kinds_useful = {t: sum(facts.unseen[u] for u in us) for t, us in useful}
        out = [choice]
        for t, _ in sorted(after, key=lambda ts: (ts[1], -kinds_useful.get(ts[0], 0))):
            a = DISCARD_BASE + t
            if a in legal and a not in out and len(out) < self.candidates:
                out.append(a)
        return out

    def _finish(self, game: Game) -> int:
        """Play ``game`` to its end with ``rule`` in every seat; this seat's payment."""
        return self.teacher.finish(game)[self.seat]


def shape_waits(game: Game, seat: int) -> set[int]:
    """The tiles completing another seat's hand in shape (8 points or not)."""
    return {t for s in range(4) if s != seat
            for t in waiting_counts(game.hands[s][:], len(game.melds[s]))}


class WaryRule(RuleBasedAgent):
    """``rule`` with a sharper sense of danger: at a discard decision with at most ``late``
    tiles left, ``worlds`` hands are sampled with the ready prior (``passed``, last discard),
    and ``rule``'s danger score of each tile is scaled by the share of samples in which another
    hand waits on it in shape, plus ``floor``, over its mean among the hand's tiles (so
    ``rule``'s sense of when to defend and how much stays; only which tile is dangerous
    changes). The product ranks danger best of the estimates ``danger`` measured (AUC 0.704
    against 0.679 for ``rule``'s penalty alone, 64 samples), yet plays no better than ``rule``:
    +0.04 a hand [-0.36, +0.44] over 1,000 duplicate deals (docs/training.md)."""

    def __init__(self, worlds: int = 64, late: int = 45, floor: float = 0.05,
                 seed: int | None = None, **rule_options: Any) -> None:
        super().__init__(**rule_options)
        if int(worlds) < 1 or float(floor) <= 0:
            raise ValueError(f"WaryRule: worlds >= 1 and floor > 0, got worlds={worlds!r} "
                             f"floor={floor!r}")
        self.worlds = int(worlds)
        self.late = int(late)
        self.floor = float(floor)
        self.seen = SeenHand(seed)
        self.scale: npt.NDArray[np.float64] | None = None
        """Per tile kind, the factor on ``rule``'s danger score at this decision (None: 1)."""

    def reset(self, seat: int, seed: int | None = None) -> None:
        super().reset(seat, seed)
        self.seen.start(seed)

    def observe_events(self, events: Sequence[Event], view: SeatView) -> None:
        self.seen.add(events, view)

    def act(self, observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
        self.scale = None
        view, events = self.seen.view, self.seen.events
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        if (view is not None and view.tiles_left <= self.late and WIN not in legal
                and PASS not in legal and any(DISCARD_BASE <= a < CHOW_BASE for a in legal)):
            hands = ready_hands(view.tiles_left, {s: len(view.melds[s]) for s in range(4)},
                                _passed(events), _last_discards(events))
            waiting = np.zeros(34)
            for _ in range(self.worlds):
                world = sample_game(events, self.seat, self.seen.rng, dealer=view.dealer,
                                    prevalent_wind=view.prevalent_wind, hands=hands)
                for t in shape_waits(world, self.seat):
                    waiting[t] += 1
            share = waiting / self.worlds + self.floor
            held = [t for t in range(34) if view.hand[t]]
            self.scale = share / share[held].mean()
        return super().act(observation, action_mask)

    def _danger(self, f: Facts, t: int) -> float:
        d = super()._danger(f, t)
        return d if self.scale is None else d * float(self.scale[t])


def departures(world: Game, seat: int, rule: RuleBasedAgent) -> int:
    """How many past decisions of the other seats in ``world`` (a sampled hand) ``rule`` would
    have decided otherwise, given that world's hands: the hand is replayed from its wall, and
    at every decision with a choice of a seat other than ``seat`` ``rule`` is asked. The other
    seats being ``rule`` players, a world their real decisions fit is likelier: weighting each
    world by ``eps ** departures`` is a tempered posterior over the sampled hands."""
    replay = GameSlot(env_options({"rules": world.rules.profile}))
    replay.resume(Game(world.rules, wall=list(world.wall.tiles), dealer=world.dealer,
                       prevalent_wind=world.prevalent_wind))
    count = 0
    for who, action in world.actions:
        assert not replay.over and replay.seat == who, "the replay departs from the world"
        if who != seat and len(replay.legal(who)) > 1:
            seen = replay.observe(who)
            count += rule.act(seen["observation"], seen["action_mask"]) != action
        replay.step(action)
    return count


def _auc(labels: npt.NDArray[np.bool_], scores: npt.NDArray[np.float64]) -> float:
    """The chance that a positive outranks a negative (ties count half)."""
    pos, neg = scores[labels], scores[~labels]
    if not len(pos) or not len(neg):
        return float("nan")
    order = np.sort(neg)
    below = np.searchsorted(order, pos, side="left")
    ties = np.searchsorted(order, pos, side="right") - below
    return float(np.mean((below + 0.5 * ties) / len(neg)))


def wins_on(game: Game, seat: int, action: int) -> bool:
    """Whether another seat may really win (8 points) on ``seat``'s discard ``action``."""
    trial = game.clone()
    trial.step(seat, action)
    return any(WIN in trial.legal(s) for s in trial.to_act())


WEIGHTS = (0.9, 0.7)
"""The ``eps`` of the weighted estimates of ``danger --weigh`` (see :func:`departures`)."""


def danger(hands: int, worlds: int = 16, read_last: bool = True, weigh: bool = False,
           out: str | None = None) -> tuple[dict[str, float], dict[str, list[int]]]:
    """See the module docstring: the AUC of each danger estimate and how many discards; and
    how far from ready the other hands are (ready, one, two, three or more tiles away), real
    and as each prior draws them, at the same decisions. ``weigh``: the ready prior's estimates
    also weighted by how well each sampled hand fits the others' real decisions
    (:func:`departures`, ``eps`` in :data:`WEIGHTS`). ``out``: an .npz file to keep every
    discard's row (``rows``: really dangerous, then each estimate in ``columns``' order)."""
    rule = RuleBasedAgent()
    slot = GameSlot(env_options({"rules": "mcr"}))
    rng = np.random.default_rng(0)
    rows: list[tuple[float, ...]] = []
    fits: list[int] = []
    readiness = {"real": [0] * 4, "uniform": [0] * 4, "ready": [0] * 4}

    for h in tqdm(range(hands), desc="danger", unit="hand"):
        slot.start(7000 + h)
        while not slot.over:
            game, seat = slot.game, slot.seat
            assert game is not None
            legal = list(slot.legal(seat))
            seen = slot.observe(seat) if len(legal) > 1 else None
            if (seen is not None and game.wall.remaining <= 45 and WIN not in legal
                    and PASS not in legal):
                events = [view(e, seat) for e in game.events]
                melds = {s: len(game.melds[s]) for s in range(4)}
                ready = ready_hands(game.wall.remaining, melds, _passed(events),
                                    _last_discards(events) if read_last else None)
                kw = {"dealer": game.dealer, "prevalent_wind": game.prevalent_wind}
                sampled = [sample_game(events, seat, rng, hands=ready, **kw)
                           for _ in range(worlds)]
                plain = [sample_game(events, seat, rng, **kw) for _ in range(worlds)]
                for name, hand in (("real", game), ("uniform", plain[0]),
                                   ("ready", sampled[0])):
                    for s in range(4):
                        if s != seat:
                            away = shanten_counts(hand.hands[s], len(hand.melds[s]))
                            readiness[name][min(max(away, 0), 3)] += 1
                shapes = [shape_waits(w, seat) for w in sampled]
                weights: list[npt.NDArray[np.float64]] = []
                if weigh:
                    away = np.array([departures(w, seat, rule) for w in sampled], dtype=float)
                    fits.append(int(away.min()))
                    weights = [eps ** (away - away.min()) for eps in WEIGHTS]
                facts = read_observation(seen["observation"])
                # rule's own penalty: its private danger and threat, read as
                # scripts/defence_oracle.py does (a measurement, not a player)
                threat = rule._threat(facts)
                for a in legal:
                    if DISCARD_BASE <= a < CHOW_BASE:
                        won = [wins_on(w, seat, a) for w in sampled]
                        waited = [a - DISCARD_BASE in w for w in shapes]
                        rows.append((
                            wins_on(game, seat, a), float(np.mean(won)),
                            float(np.mean([wins_on(w, seat, a) for w in plain])),
                            threat * rule._danger(facts, a - DISCARD_BASE),
                            float(np.mean(waited)),
                            *[float(np.average(won, weights=w)) for w in weights],
                            *[float(np.average(waited, weights=w)) for w in weights]))
            action = legal[0]
            if seen is not None:
                action = rule.act(seen["observation"], seen["action_mask"])
            slot.step(action)
    width = 5 + 2 * len(WEIGHTS) * weigh
    table = np.array(rows, dtype=np.float64).reshape(-1, width)
    if out is not None:
        columns = ["dangerous", "ready+passed", "uniform", "rule", "ready shape waits"]
        if weigh:
            columns += [f"{what}, weighted {eps}" for what in ("ready+passed",
                        "ready shape waits") for eps in WEIGHTS]
        np.savez(out, rows=table, columns=np.array(columns))
    labels = table[:, 0] > 0
    weighted: dict[str, float] = {}
    if weigh:
        for k, eps in enumerate(WEIGHTS):
            weighted[f"ready+passed, weighted {eps}"] = _auc(labels, table[:, 5 + k])
            weighted[f"ready shape waits, weighted {eps}"] = _auc(
                labels, table[:, 5 + len(WEIGHTS) + k])
        weighted["fewest departures (median)"] = float(np.median(fits)) if fits else float("nan")
    return weighted | {"discards": float(len(table)),
            "dangerous": float(labels.mean()) if len(table) else float("nan"),
            "ready+passed": _auc(labels, table[:, 1]), "uniform": _auc(labels, table[:, 2]),
            "rule": _auc(labels, table[:, 3]), "ready shape waits": _auc(labels, table[:, 4]),
            "sampled wins": float(table[:, 1].mean()) if len(table) else float("nan"),
            "real wins": float(labels.mean()) if len(table) else float("nan")}, readiness


def oracle(deals: int, start: int, **options: Any) -> list[int]:
    """The search player told the other seats' real concealed tiles (only the wall is sampled),
    1-vs-3 against ``rule``: for each deal (hand ``start + d`` as ``raw_env.reset(seed=...)``
    deals it) and each seat, the searching seat's payment minus what ``rule`` in that seat
    scores in the same deal (four ``rule`` players are deterministic: one baseline game a
    deal). A ceiling for any prior over the other hands: the same search with perfect reading."""
    teacher = Teacher()
    gains: list[int] = []
    for d in tqdm(range(deals), desc="oracle search", unit="deal"):
        seed = start + d
        base = teacher.finish(new_hand(MCR, seed))
        for seat in range(4):
            game = new_hand(MCR, seed)
            slot = GameSlot(teacher.options)
            slot.resume(game)
            agent = SearchAgent(**options)
            agent.reset(seat, seed=seed)
            agent.hands_override = _real_hands(game)
            agent.kongs_override = _real_kongs(game)
            fed = 0
            while not slot.over:
                s = slot.seat
                legal = slot.legal(s)
                action = legal[0]
                if len(legal) > 1:
                    seen = slot.observe(s)
                    player = teacher.rule
                    if s == seat:
                        agent.observe_events([view(e, seat) for e in game.events[fed:]],
                                             slot.view(seat))
                        fed = len(game.events)
                        player = agent
                    action = player.act(seen["observation"], seen["action_mask"])
                slot.step(action)
            assert game.result is not None
            gains.append(game.result.payments[seat] - base[seat])
    return gains


def _real_hands(game: Game) -> HandSampler:
    """A prior that deals every other seat its real concealed tiles (from ``game``, live)."""
    def real(unseen: list[int], sizes: dict[int, int],
             rng: np.random.Generator) -> dict[int, list[int]]:
        return {s: [t for t in range(34) for _ in range(game.hands[s][t])] for s in sizes}
    return real


def _real_kongs(game: Game) -> KongSampler:
    """A prior that gives each hidden concealed kong its real kind (from ``game``, live): the
    kongs of the seats asked about, in the order they were declared (the searching seat's own
    are never asked about)."""
    def real(unseen: list[int], seats: list[int], rng: np.random.Generator) -> list[int]:
        return [e.tile for e in game.events if isinstance(e, ConcealedKong) and e.seat in seats]
    return real


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("danger", help="how well sampled hands rank dangerous discards")
    d.add_argument("--hands", type=int, default=25, help="hands of four rule players")
    d.add_argument("--worlds", type=int, default=16, help="sampled hands per decision")
    d.add_argument("--out", default=None, help="an .npz file to keep every discard's row")
    d.add_argument("--weigh", action="store_true",
                   help="also weigh the ready prior's hands by how well they fit the others' "
                        "real decisions (rule asked at each: slower)")
    o = sub.add_parser("oracle", help="the search told the other hands: a ceiling for priors")
    o.add_argument("--deals", type=int, default=60, help="duplicate deals (4 seatings each)")
    o.add_argument("--start", type=int, default=0, help="the first deal's seed")
    o.add_argument("--worlds", type=int, default=16, help="sampled walls per decision")
    o.add_argument("--late", type=int, default=45, help="search with at most this many left")
    o.add_argument("--candidates", type=int, default=3, help="discards compared")
    o.add_argument("--margin", type=float, default=1.0, help="standard errors to depart")
    args = parser.parse_args(argv)
    if args.command == "oracle":
        if args.deals < 1 or args.worlds < 2 or args.start < 0 or args.candidates < 2:
            parser.error("--deals >= 1, --worlds >= 2, --start >= 0, --candidates >= 2")
        gains = oracle(args.deals, args.start, worlds=args.worlds, late=args.late,
                       candidates=args.candidates, margin=args.margin, safe=True, seed=0)
        per_deal = np.array(gains, dtype=np.float64).reshape(-1, 4).mean(axis=1)
        mean, half = float(per_deal.mean()), 1.96 * float(per_deal.std(ddof=1)) / np.sqrt(
            len(per_deal)) if len(per_deal) > 1 else float("nan")
        print(f"search told the other hands − rule: {mean:+.2f} per hand, 95% CI "
              f"[{mean - half:+.2f}, {mean + half:+.2f}] over {len(per_deal)} deals")
        return 0
    if args.hands < 1 or args.worlds < 1:
        parser.error("--hands and --worlds must be at least 1")
    got, readiness = danger(args.hands, args.worlds, weigh=args.weigh, out=args.out)
    print(f"{int(got['discards'])} discards, {got['dangerous']:.1%} of them another seat could "
          "win on; AUC of each danger estimate (0.5: chance):")
    for name in ("ready+passed", "ready shape waits", "uniform", "rule", *[
            f"{what}, weighted {eps}" for what in ("ready+passed", "ready shape waits")
            for eps in WEIGHTS if args.weigh]):
        print(f"  {name:<17} {got[name]:.3f}")
    if args.weigh:
        print(f"  (the best-fitting sampled hand departs from the others' real decisions "
              f"{got['fewest departures (median)']:.0f} times, median)")
    print(f"  (sampled hands let another seat win on {got['sampled wins']:.1%} of discards)")
    print("the other hands at those decisions: ready / 1 / 2 / 3+ tiles away")
    for name, counts in readiness.items():
        total = max(1, sum(counts))
        print(f"  {name:<8} " + " / ".join(f"{c / total:.1%}" for c in counts)
              + f"  ({total} hands)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
