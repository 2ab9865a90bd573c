"""A hand as one seat may imagine it: a :class:`Game` that agrees with everything the seat has
seen, its hidden tiles drawn at random (determinization, for search agents).

A seat sees its own tiles and every public event; it does not see the other seats' concealed
tiles, their draws or the wall. :func:`sample_game` takes the seat's events (as the seat sees
them: another seat's deal and draws carry no tile, mjenv.engine.events.view) and returns a new
:class:`Game` at the same point of the same hand in which

* the seat's own tiles, every public event and every count (tiles in each hand, tiles left in
  the wall) are those it saw;
* the tiles it has not seen (the other hands' concealed tiles and the wall) are a random
  arrangement of exactly those tiles: the other hands drawn by a prior (``hands``: every
  arrangement equally likely by default; a search agent may pass one that knows how its
  opponents play), the wall shuffled, and no flower in a concealed hand, as the rules require.

Why a whole game and not only hands: a search agent plays the hand on from here (``Game.clone``,
the agents' own decisions) in many such worlds, and only a real :class:`Game` applies every rule
the same way the real table does. The game is rebuilt by replaying the hand: a wall is laid out
so that every tile the seat saw taken comes from where it was taken (the wall's own ``deal``,
``draw`` and ``draw_replacement`` give the positions: the layout is written once, in
mjenv.engine.wall), each other seat's discards and melded tiles are placed at earlier draws of
that seat, and the actions the seat saw (discards, claims, kongs; Pass for every answer it did
not see) are stepped on a new game over that wall. The replayed events, as the seat sees them,
must equal the seat's. Events that no hand of the rules could produce (a tile shown five
times, a claim the engine would not offer, events out of order) fail that replay or its check
with one ValueError; the events of a real hand never do (tests/engine/test_determinize.py
replays every decision of many hands in both profiles).

Another seat's concealed kong shows the seat only that it was declared: its kind stays hidden
until the hand ends. Its kind is drawn first (``kongs``: by default any kind of which the seat
has seen no copy, all equally likely, as the uniform prior over arrangements makes them; the
real kind is always one of them), then the other hands from what is left; its four tiles are
four of that seat's earlier takes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from mjenv import actions as A
from mjenv.engine.events import (
    HIDDEN,
    AddedKong,
    Chow,
    ConcealedKong,
    Deal,
    Discard,
    Draw,
    DrawGame,
    Event,
    Flower,
    Kong,
    Penalty,
    Pung,
    Win,
    view,
)
from mjenv.engine.game import CLAIM, ROB, Game
from mjenv.engine.rules import MCR, RuleConfig
from mjenv.engine.wall import LAYOUTS
from mjenv.tiles import FLOWER_BASE

Step = tuple[int, int, bool]
"""(seat, action id, whether it answers a claim window)."""
HIDDEN_KONG = -1
"""The action of a step that declares a concealed kong of a hidden kind, until it is drawn."""


class _Layout:
    """Walks the seat's events with a wall of positions (the tile at position ``p`` is ``p``),
    so that every take the events show gets its position, and records what is known there."""

    def __init__(self, rules: RuleConfig, seat: int, dealer: int) -> None:
        self.seat = seat
        self.positions = LAYOUTS[rules.wall_layout](list(range(rules.num_tiles)))
        self.known: dict[int, int] = {}
        """position -> tile, for every tile the seat knows the place of."""
        self.dealt = self.positions.deal(dealer)
        self.taken: list[list[int]] = [[] for _ in range(4)]
        """Each other seat's takes whose tile is unknown yet (non-flowers), in order."""
        self.initial: list[list[int]] = [[] for _ in range(4)]
        """The flower replacements' positions of the initial replacement, per other seat."""
        self.source: list[list[int]] = [[] for _ in range(4)]
        """Where another seat's flowers of the current initial round came from ..."""
        self.used = [0, 0, 0, 0]
        """... and how many of those places hold this round's flowers so far."""
        self.last: list[str] = ["", "", "", ""]
        """Another seat's latest initial event: "", "flower" or "draw"."""
        self.flowers: set[int] = set()
        """The positions of the other seats' initial flowers."""
        self.kongs: list[tuple[int, list[int]]] = []
        """Each concealed kong whose kind is hidden, in event order: its seat and the four
        positions of its tiles."""

    def deal(self, event: Deal) -> None:
        s = event.seat
        if s == self.seat:
            if len(event.tiles) != len(self.dealt[s]):
                raise ValueError(f"seat {s}'s deal has {len(event.tiles)} tiles, not 13")
            for p, t in zip(self.dealt[s], event.tiles, strict=True):
                self.known[p] = t

    def initial_flower(self, event: Flower) -> None:
        """A flower of the initial replacement: from another seat's deal (its first round), else
        from its previous round of replacements, in the order they were taken (the engine keeps
        that order), so the first unused positions of that source hold the flowers."""
        s = event.seat
        if s == self.seat:
            return
        if self.last[s] == "":
            self.source[s], self.used[s] = list(self.dealt[s]), 0
        elif self.last[s] == "draw":  # a new round: its flowers came from the last round's
            # replacements, one taken per flower of that round
            self.source[s], self.used[s] = self.initial[s][-self.used[s]:], 0
        if self.used[s] >= len(self.source[s]):
            raise ValueError(f"seat {s} exposes more flowers than it was dealt or drew")
        p = self.source[s][self.used[s]]
        self.used[s] += 1
        self.known[p] = event.tile
        self.flowers.add(p)
        self.last[s] = "flower"

    def initial_draw(self, event: Draw) -> None:
        s = event.seat
        p = self.positions.draw_replacement(s)
        if s == self.seat:
            self.known[p] = event.tile
        else:
            self.initial[s].append(p)
            self.last[s] = "draw"

    def end_initial(self) -> None:
        """Each other seat's dealt tiles and replacements that were not flowers: its first
        takes of unknown tiles."""
        for s in range(4):
            if s != self.seat:
                self.taken[s] = [p for p in (*self.dealt[s], *self.initial[s])
                                 if p not in self.flowers]

    def take(self, seat: int, tail: bool, tile: int) -> None:
        p = (self.positions.draw_replacement(seat) if tail else self.positions.draw(seat))
        if tile != HIDDEN:
            self.known[p] = tile
        elif seat == self.seat:
            raise ValueError(f"seat {seat}'s own draw shows no tile")
        else:
            self.taken[seat].append(p)

    def hidden_kong(self, seat: int) -> None:
        """Another seat declares a concealed kong of a hidden kind: four of its earlier takes
        of an unknown tile (the latest ones left) hold it."""
        if len(self.taken[seat]) < 4:
            raise ValueError(f"seat {seat} declares a concealed kong with fewer than four tiles")
        self.kongs.append((seat, [self.taken[seat].pop() for _ in range(4)]))

    def give_up(self, seat: int, tiles: Sequence[int]) -> None:
        """``seat`` shows ``tiles`` from its concealed hand (a discard, a meld): each was taken
        at one of its earlier takes of an unknown tile (the latest one left)."""
        if seat == self.seat:
            return
        for t in tiles:
            if not self.taken[seat]:
                raise ValueError(f"seat {seat} shows more tiles than it holds")
            self.known[self.taken[seat].pop()] = t


def _plan(events: Sequence[Event], seat: int, rules: RuleConfig,
          dealer: int) -> tuple[_Layout, list[Step]]:
    """The positions the events fix and the actions to replay (:data:`HIDDEN_KONG` for each
    concealed kong of a hidden kind)."""
    layout = _Layout(rules, seat, dealer)
    steps: list[Step] = []
    initial = True
    previous: Event | None = None
    for e in events:
        s = e.seat
        if isinstance(e, Deal):
            layout.deal(e)
        elif isinstance(e, Flower) and e.initial:
            layout.initial_flower(e)
        elif isinstance(e, Draw) and initial and e.replacement:
            layout.initial_draw(e)
        elif isinstance(e, (Draw, Flower)):
            if initial:
                layout.end_initial()
                initial = False
            if isinstance(e, Draw):
                layout.take(s, e.replacement, e.tile)
            else:  # a flower drawn in play: from the tail after a kong or another flower
                tail = (previous is not None and previous.seat == s
                        and isinstance(previous, (Flower, Kong, ConcealedKong, AddedKong)))
                layout.take(s, tail, e.tile)
        elif isinstance(e, Discard):
            layout.give_up(s, (e.tile,))
            steps.append((s, A.discard(e.tile), False))
        elif isinstance(e, Chow):
            layout.give_up(s, [t for t in e.tiles if t != e.claimed])
            steps.append((s, A.chow(e.tiles[1], e.claimed), True))
        elif isinstance(e, Pung):
            layout.give_up(s, (e.tile, e.tile))
            steps.append((s, A.pung(e.tile), True))
        elif isinstance(e, Kong):
            layout.give_up(s, (e.tile,) * 3)
            steps.append((s, A.kong(e.tile), True))
        elif isinstance(e, AddedKong):
            layout.give_up(s, (e.tile,))
            steps.append((s, A.added_kong(e.tile), False))
        elif isinstance(e, ConcealedKong):
            if e.tile == HIDDEN:
                layout.hidden_kong(s)
                steps.append((s, HIDDEN_KONG, False))
            else:
                steps.append((s, A.concealed_kong(e.tile), False))
        elif isinstance(e, (Win, DrawGame, Penalty)):
            raise ValueError("the hand is over: nothing to sample")
        previous = e
    if initial:
        raise ValueError("the events stop before the first draw of play")
    return layout, steps


HandSampler = Callable[[list[int], dict[int, int], np.random.Generator], dict[int, list[int]]]
"""A prior over the other seats' concealed tiles: given the 34 counts of the unseen tiles that
may be in a hand (no flowers) and each other seat's number of concealed tiles, it returns each
other seat's concealed tiles (ids), drawn from those counts."""


def uniform_hands(unseen: list[int], sizes: dict[int, int],
                  rng: np.random.Generator) -> dict[int, list[int]]:
    """The default prior: every arrangement of the unseen tiles equally likely."""
    pool = np.array([t for t in range(len(unseen)) for _ in range(unseen[t])], dtype=np.int64)
    rng.shuffle(pool)
    out: dict[int, list[int]] = {}
    at = 0
    for s, n in sizes.items():
        out[s] = [int(t) for t in pool[at:at + n]]
        at += n
    return out


KongSampler = Callable[[list[int], list[int], np.random.Generator], list[int]]
"""A prior over the kinds of the other seats' concealed kongs whose kind is hidden: given the
34 counts of the unseen tiles and the declaring seat of each such kong (in the order they were
declared), it returns each kong's kind, a kind with four unseen copies (no kind twice)."""


def uniform_kongs(unseen: list[int], seats: list[int],
                  rng: np.random.Generator) -> list[int]:
    """The default: every kind of which the seat has seen no copy equally likely (what the
    uniform prior over arrangements gives: removing any such kind leaves the same counts)."""
    four = [t for t in range(len(unseen)) if unseen[t] == 4]
    if len(four) < len(seats):
        raise ValueError("another seat's concealed kong: no kind has four unseen copies")
    return [four[int(i)] for i in rng.choice(len(four), size=len(seats), replace=False)]


def _wall(layout: _Layout, rules: RuleConfig, rng: np.random.Generator,
          hands: HandSampler, kongs: KongSampler) -> tuple[list[int], list[int]]:
    """Every position: the known tiles where they are, each hidden concealed kong's kind from
    ``kongs``, the other seats' concealed tiles from ``hands``, the rest of the unseen tiles
    shuffled over the other places; and the kongs' kinds."""
    left: dict[int, int] = {}
    for t in rules.tile_set():
        left[t] = left.get(t, 0) + 1
    for t in layout.known.values():
        if left.get(t, 0) <= 0:
            raise ValueError(f"the events show tile {t} more often than the wall holds it")
        left[t] -= 1
    tiles = [-1] * rules.num_tiles
    kinds: list[int] = []
    if layout.kongs:
        seats = [seat for seat, _ in layout.kongs]
        kinds = kongs([left.get(t, 0) for t in range(FLOWER_BASE)], seats, rng)
        if len(kinds) != len(seats):
            raise ValueError(f"the kong sampler gave {len(kinds)} kinds for {len(seats)} kongs")
        for kind, (_, places) in zip(kinds, layout.kongs, strict=True):
            if not 0 <= kind < FLOWER_BASE or left[kind] != 4:
                raise ValueError(f"the kong sampler drew kind {kind!r}, which has not four "
                                 "unseen copies")
            left[kind] = 0
            for p in places:
                tiles[p] = kind
    unseen = [left.get(t, 0) for t in range(FLOWER_BASE)]
    sizes = {s: len(layout.taken[s]) for s in range(4) if s != layout.seat}
    if sum(sizes.values()) > sum(unseen):
        raise ValueError("too few unseen tiles for the other seats' hands")
    drawn = hands(unseen[:], sizes, rng)
    for p, t in layout.known.items():
        tiles[p] = t
    for s, n in sizes.items():
        got = drawn.get(s, [])
        if len(got) != n:
            raise ValueError(f"the hand sampler gave seat {s} {len(got)} tiles, not {n}")
        for p, t in zip(layout.taken[s], got, strict=True):
            if not 0 <= t < FLOWER_BASE or left[t] <= 0:
                raise ValueError(f"the hand sampler drew tile {t!r}, which is not unseen")
            left[t] -= 1
            tiles[p] = t
    rest = np.array([t for t, n in sorted(left.items()) for _ in range(n)], dtype=np.int64)
    rng.shuffle(rest)
    free = [p for p in range(rules.num_tiles) if tiles[p] < 0]
    for p, t in zip(free, rest, strict=True):
        tiles[p] = int(t)
    return tiles, kinds


def _close_window(game: Game) -> None:
    """Answer Pass for every seat still asked in an open claim window (or robbery)."""
    while game.phase in (CLAIM, ROB):
        game.step(game.to_act()[0], A.PASS)


def _replay(game: Game, steps: list[Step], window_open: bool) -> None:
    """Step the seen actions on ``game``: a claim answers the window its discard opened (every
    other seat asked passes), and any window still open before another action closed with
    every answer Pass (the seat saw no claim). ``window_open``: the events end on a discard or
    an added kong whose window has not closed."""
    for seat, action, claim in steps:
        if claim:
            answered = False
            while game.phase == CLAIM:
                s = game.to_act()[0]
                game.step(s, action if s == seat else A.PASS)
                answered = answered or s == seat
            if not answered:
                raise ValueError(f"seat {seat} claims with {A.action_to_string(action)}, "
                                 "which the hand did not offer it")
        else:
            _close_window(game)
            game.step(seat, action)
    if not window_open:
        _close_window(game)


def sample_game(events: Sequence[Event], seat: int, rng: np.random.Generator, *,
                rules: RuleConfig = MCR, dealer: int = 0, prevalent_wind: int = 0,
                hands: HandSampler = uniform_hands,
                kongs: KongSampler = uniform_kongs) -> Game:
    """A :class:`Game` consistent with ``events`` as ``seat`` saw them (the hand's events so far,
    redacted for that seat: mjenv.engine.events.view), its unseen tiles drawn with ``rng``
    (see the module docstring); ``hands`` draws the other seats' concealed tiles (a prior: by
    default every arrangement is equally likely), ``kongs`` the kinds of the other seats'
    concealed kongs whose kind is hidden (by default any kind the seat has seen no copy of).
    ValueError when the events are not a hand in progress of ``rules`` (over, cut before
    play began, more tiles than the wall holds, anything the engine would not play) or a
    prior draws tiles or kinds that are not unseen."""
    if not isinstance(seat, (int, np.integer)) or not 0 <= seat <= 3:
        raise ValueError(f"seat must be 0..3, got {seat!r}")
    if any(not isinstance(e, Event) or not 0 <= e.seat <= 3 for e in events):
        raise ValueError("the events must be mjenv.engine.events objects of seats 0..3")
    layout, steps = _plan(events, seat, rules, dealer)
    wall, kinds = _wall(layout, rules, rng, hands, kongs)
    drawn_kinds = iter(kinds)
    steps = [(s, A.concealed_kong(next(drawn_kinds)) if a == HIDDEN_KONG else a, claim)
             for s, a, claim in steps]
    game = Game(rules, wall=wall, dealer=dealer, prevalent_wind=prevalent_wind)
    try:
        _replay(game, steps, isinstance(events[-1], (Discard, AddedKong)))
    except ValueError as err:
        raise ValueError(f"the events are not a hand of the {rules.profile} rules: {err}") from None
    seen = [view(e, seat) for e in game.events]
    if seen != list(events):
        first = next((i for i, (a, b) in enumerate(zip(seen, events, strict=False)) if a != b),
                     min(len(seen), len(events)))
        raise ValueError(f"the events are not a hand of the {rules.profile} rules: replayed, "
                         f"it departs from them at event {first}")
    return game
