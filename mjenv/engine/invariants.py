"""``check_invariants(game)``: recompute what a game must satisfy, from scratch.

Tiles are conserved (wall + standing tiles + melds + pools + flowers is exactly the profile's
tile set), at most 4 copies of a kind, hand sizes (13 − 3·melds, +1 for the seat holding a 14th
tile), the face-up counts and waiting-tile caches agree with the state, and scores sum to zero.
Raises AssertionError naming the first broken invariant.
"""

from __future__ import annotations

from mjenv.decompose import waiting_counts
from mjenv.engine.game import OVER, Game
from mjenv.melds import CONCEALED_KONG
from mjenv.tiles import NUM_KINDS, tile_code


def _fail(message: str) -> None:
    raise AssertionError(message)


def _tally(game: Game) -> tuple[list[int], list[int]]:
    """Every tile of the game counted where it lies (wall, hands, melds, pools, flowers), and
    the face-up ones (pools and exposed melds)."""
    counts = [0] * 42
    for t in game.wall.remaining_tiles():
        counts[t] += 1
    visible = [0] * NUM_KINDS
    for s in range(4):
        for t in range(NUM_KINDS):
            n = game.hands[s][t]
            if n < 0:
                _fail(f"seat {s} holds {n} of {tile_code(t)}")
            counts[t] += n
        for m in game.melds[s]:
            for t in m.tiles:
                counts[t] += 1
                if m.kind != CONCEALED_KONG:
                    visible[t] += 1
        for t in game.discards[s]:
            counts[t] += 1
            visible[t] += 1
        for t in game.flowers[s]:
            counts[t] += 1
    return counts, visible


def _check_tiles(game: Game) -> None:
    """The profile's tile set, each copy in exactly one place; the face-up cache agrees."""
    counts, visible = _tally(game)
    total = sum(counts)
    if total != game.rules.num_tiles:
        _fail(f"{total} tiles accounted for, expected {game.rules.num_tiles}")
    expected = [0] * 42
    for t in game.rules.tile_set():
        expected[t] += 1
    for t in range(42):
        if counts[t] != expected[t]:
            _fail(f"{counts[t]} copies of {tile_code(t)}, expected {expected[t]}")
    if visible != game.visible:
        _fail("the face-up counts (visible) disagree with the pools and exposed melds")


def _check_hands(game: Game, check_waits: bool) -> None:
    """Hand sizes, and the cached waiting tiles of every seat not holding a 14th tile."""
    for s in range(4):
        size = sum(game.hands[s])
        want = 13 - 3 * len(game.melds[s]) + (1 if game.holder == s else 0)
        if size != want:
            _fail(f"seat {s} holds {size} standing tiles, expected {want}")
        if check_waits and game.holder != s and game.phase != OVER:
            waits = tuple(waiting_counts(game.hands[s][:], len(game.melds[s])))
            if waits != game.waiting_tiles(s):
                _fail(f"seat {s}'s cached waiting tiles are stale")


def _check_scores(game: Game) -> None:
    """Zero-sum scores, and a result exactly when the hand is over."""
    if sum(game.scores) != 0:
        _fail(f"scores {game.scores} do not sum to zero")
    if game.phase == OVER:
        if game.result is None:
            _fail("a finished hand has no result")
        elif sum(game.result.payments) != 0:
            _fail(f"payments {game.result.payments} do not sum to zero")
    elif game.result is not None:
        _fail("a hand in play has a result")


def check_invariants(game: Game, *, check_waits: bool = True) -> None:
    """Raise AssertionError naming the first broken invariant (see the module docstring)."""
    _check_tiles(game)
    _check_hands(game, check_waits)
    _check_scores(game)
