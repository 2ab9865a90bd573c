"""mjenv.shanten's analyses of hands one tile apart, :func:`discard_outcomes` and
:func:`useful_counts` (the hand-analysis planes' hot path), equal the one-hand-at-a-time path
they replace: :func:`shanten_counts` after each discard, :func:`analyze_counts` for the useful
tiles, on random hands of every meld count, many of them near a special shape."""

from __future__ import annotations

import random

from mjenv import shanten as S
from mjenv.decompose import KNITTED_PATTERNS, ORPHANS
from mjenv.shanten import analyze_counts, discard_outcomes, shanten_counts, useful_counts
from mjenv.testing.samples import sample_hands
from mjenv.tiles import NUM_KINDS

SEED = 20261201
KNITTED = sorted({t for pattern in KNITTED_PATTERNS[:2] for t in pattern} | set(range(27, 34)))
STYLES = ("uniform", "pairs", "orphans", "knitted", "one suit", "quads")


def _counts(rng: random.Random, size: int, style: str) -> list[int]:
    """``size`` standing tiles as 34 counts (at most 4 a kind), drawn the way ``style`` says:
    uniform; pair-heavy (near seven pairs); mostly terminals and honours (near thirteen
    orphans); mostly knitted-pattern kinds and honours (near honours-and-knitted and the
    knitted straight); mostly one suit; or with kinds held four times (fifth copies)."""
    counts = [0] * NUM_KINDS
    while sum(counts) < size:
        room = size - sum(counts)
        if style == "orphans" and rng.random() < 0.85:
            t = rng.choice(ORPHANS)
        elif style == "knitted" and rng.random() < 0.85:
            t = rng.choice(KNITTED)
        elif style == "one suit" and rng.random() < 0.8:
            t = rng.randrange(9)
        else:
            t = rng.randrange(NUM_KINDS)
        add = 1
        if style == "pairs" and rng.random() < 0.7:
            add = 2
        elif style == "quads" and rng.random() < 0.3:
            add = 4
        counts[t] += min(add, room, 4 - counts[t])
    return counts


def _hands(seed: int, n: int, extra: int) -> list[tuple[list[int], int]]:
    """``n`` hands of ``13 - 3·melds + extra`` standing tiles, 0-4 melds, every style."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        n_melds = rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
        out.append((_counts(rng, 13 - 3 * n_melds + extra, STYLES[i % len(STYLES)]), n_melds))
    return out


def _discards_one_at_a_time(counts: list[int], n_melds: int
                            ) -> tuple[list[tuple[int, int]], list[tuple[int, tuple[int, ...]]]]:
    after = []
    for t in range(NUM_KINDS):
        if counts[t]:
            counts[t] -= 1
            after.append((t, shanten_counts(counts, n_melds)))
            counts[t] += 1
    low = min(s for _, s in after)
    useful = []
    for t, s in after:
        if s == low:
            counts[t] -= 1
            useful.append((t, analyze_counts(counts, n_melds).useful))
            counts[t] += 1
    return after, useful


def test_discard_outcomes_equal_each_discard_analysed() -> None:
    for counts, n_melds in _hands(SEED, 3000, 1):
        kept = counts[:]
        want = _discards_one_at_a_time(counts, n_melds)
        assert discard_outcomes(counts, n_melds) == want, (kept, n_melds)
        assert discard_outcomes(counts, n_melds, False) == (want[0], [])
        assert counts == kept


def test_useful_counts_equal_analyze_counts() -> None:
    for counts, n_melds in _hands(SEED + 1, 3000, 0):
        kept = counts[:]
        want = analyze_counts(counts, n_melds)
        assert useful_counts(counts, n_melds) == (want.shanten, want.useful), (kept, n_melds)
        assert counts == kept
    fourteen = [2, 2, 2, 0, 0, 0, 0, 0, 0] + [1] * 8 + [0] * 17  # 14-form: nothing useful
    assert useful_counts(fourteen, 0) == (analyze_counts(fourteen, 0).shanten, ())


def test_useful_tiles_are_the_kinds_that_lower_the_shanten() -> None:
    """By definition, fifth copies included, for each best discard's hand left."""
    for counts, n_melds in _hands(SEED + 2, 300, 1):
        after, useful = discard_outcomes(counts, n_melds)
        low = min(s for _, s in after)
        for t, kinds in useful:
            counts[t] -= 1
            lowering = []
            for u in range(NUM_KINDS):
                counts[u] += 1
                if shanten_counts(counts, n_melds) < low:
                    lowering.append(u)
                counts[u] -= 1
            assert kinds == tuple(lowering), (counts, n_melds, t)
            counts[t] += 1


def test_results_do_not_depend_on_the_tables() -> None:
    hands = _hands(SEED + 3, 200, 1)
    before = [discard_outcomes(counts, n_melds) for counts, n_melds in hands]
    S.clear_tables()
    assert [discard_outcomes(counts, n_melds) for counts, n_melds in hands] == before


def test_every_entry_point_gives_the_same_results_from_cold_tables() -> None:
    """Vectors are numbered as hands need them, and every new vector lengthens the rows of
    the tops and products tables: a result must not depend on when that happens (a row read
    before a product made a new vector once was too short). From cleared tables each call
    meets new vectors part-way; the second pass meets none."""
    hands = _hands(SEED + 11, 400, 0) + _hands(SEED + 13, 400, 1)

    def results() -> list[object]:
        out: list[object] = []
        for counts, n_melds in hands:
            out.append(shanten_counts(counts, n_melds))
            out.append(S.regular_shanten_counts(counts, n_melds))
            if sum(counts) % 3 == 1:
                out.append(useful_counts(counts, n_melds))
            else:
                out.append(discard_outcomes(counts, n_melds))
        return out

    S.clear_tables()
    cold = results()
    assert results() == cold


def test_best_discard_shanten_is_the_fourteen_tile_shanten() -> None:
    """The planes' claim columns rest on this identity (mjenv.encoders.shanten_planes,
    ``_after_claim``): over the discards of a 14-form hand the lowest shanten left is the
    hand's own shanten, or 0 where the hand is complete. On random hands of every style and
    meld count, and on complete hands of every shape (where the two differ by the clamp)."""
    hands = _hands(SEED + 7, 3000, 1)
    for won in sample_hands(SEED, 300):
        counts = [0] * NUM_KINDS
        for t in (*won.hand, won.win_tile):
            counts[t] += 1
        hands.append((counts, len(won.melds)))
    complete = 0
    for counts, n_melds in hands:
        own = shanten_counts(counts, n_melds)
        complete += own == -1
        lowest = min(s for _, s in discard_outcomes(counts, n_melds, False)[0])
        assert lowest == max(own, 0), (counts, n_melds)
    assert complete >= 300
