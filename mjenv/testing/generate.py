"""The generic machinery of the test-hand generator: physically valid hands built from tile counts.

Everything here is built from tile counts alone; no reference calculator is used, so the
hands can be fed both to :func:`mjenv.fans.calculate` and to an oracle. Where completeness or
waits matter (non-winning samples, hands built for a single wait) the shape checks of
:mod:`mjenv.decompose` answer; tests cross-check those against a brute-force reference.

* :class:`WinningHand` is one scoring input; :func:`validate_hand` lists what is physically
  wrong with one.
* :func:`build_regular` and the ``build_*`` functions of the special shapes make a complete
  hand around given sets, with random presentations (melds of every kind) and flags; the
  per-fan recipes of :mod:`mjenv.testing.recipes` are written with them.
* :func:`random_winning_hand` builds a complete hand of a given (or random) shape with
  0-4 melds of every kind and a plausible set of flags.

Physical validity means: at most 4 copies of each tile kind counting melds, chows only of
three consecutive suited tiles, 13 - 3 * melds concealed tiles before the win, and flags that
can happen at a table (a kong-replacement win needs a kong; robbing a kong needs that the
winner neither holds nor has melded a copy of the tile and is never the last tile; 和绝张
only when the winner holds no copy of the winning tile among the concealed tiles).

Every random choice is drawn from the caller's ``numpy.random.Generator`` in a fixed order:
the samples of :mod:`mjenv.testing.samples` are pinned by seed in tests and benchmarks
(``docs/fan-differential.md`` names ``sample_hands(2024, 10000)``), so a change to the order or
number of draws changes those hands.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mjenv.decompose import HONORS, KNITTED_PATTERNS, ORPHANS, waiting_tiles
from mjenv.fans.context import DEFAULT, FLAG_NAMES, WinContext
from mjenv.melds import ADDED_KONG, CHOW, CONCEALED_KONG, KONG, KONG_KINDS, PUNG, Meld
from mjenv.tiles import (
    EAST,
    NORTH,
    NUM_KINDS,
    RED,
    SOUTH,
    WEST,
    WHITE,
    is_terminal,
    tile_code,
    tile_id,
)
from mjenv.tiles import GREEN as GREEN_DRAGON

SHAPES: tuple[str, ...] = (
    "regular",
    "seven_pairs",
    "thirteen_orphans",
    "honors_knitted",
    "knitted_straight",
)
"""Hand shapes of rules §2.1 (``honors_knitted`` covers 全不靠 and 七星不靠)."""

SHAPE_WEIGHTS: tuple[float, ...] = (0.76, 0.08, 0.04, 0.05, 0.07)
"""Shape mix used by :func:`random_winning_hand` when no shape is given."""

WINDS: tuple[int, ...] = (EAST, SOUTH, WEST, NORTH)
DRAGONS: tuple[int, ...] = (RED, GREEN_DRAGON, WHITE)
SUITED: tuple[int, ...] = tuple(range(EAST))
TERMINALS: tuple[int, ...] = tuple(t for t in SUITED if is_terminal(t))
GREEN: tuple[int, ...] = (10, 11, 12, 14, 16, GREEN_DRAGON)  # T2 T3 T4 T6 T8 发
REVERSIBLE: tuple[int, ...] = (18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, WHITE)
# HONORS (27..33) and ORPHANS (terminals + honours) come from mjenv.decompose.

# The six knitted straights in 147 / 258 / 369 order (decompose keeps them sorted): the
# generator draws tiles and winning tiles by position, so this order fixes its output.
_KNITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(pattern, key=lambda t: (t % 9 % 3, t))) for pattern in KNITTED_PATTERNS
)

# presentations of a set in a regular hand
HAND = "hand"  # concealed among the standing tiles


def st(suit: int, rank: int) -> int:
    """The id of a suited tile (suit 0 W, 1 T, 2 B; rank 1..9)."""
    return suit * 9 + rank - 1


# --------------------------------------------------------------------------- the hand


@dataclass(frozen=True)
class WinningHand:
    """One scoring input: concealed tiles without the winning tile, melds, winning tile, flags.

    ``shape`` and ``target`` record how the generator built the hand (informational only).
    """

    hand: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    context: WinContext = DEFAULT
    shape: str = "regular"
    target: str | None = None

    def flags(self) -> dict[str, Any]:
        """The seven flags of :attr:`context` by name (the JSON form, and the keyword form of
        the reference calculator's call)."""
        return {name: getattr(self.context, name) for name in FLAG_NAMES}

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``calculate(hand, melds, win_tile, **kwargs)``."""
        return {"context": self.context}

    def args(self) -> tuple[tuple[int, ...], tuple[Meld, ...], int]:
        """Positional arguments for ``calculate``."""
        return self.hand, self.melds, self.win_tile

    def to_dict(self) -> dict[str, Any]:
        """The JSON-lines input form of ``mjenv fan --jsonl``."""
        out: dict[str, Any] = {
            "hand": [tile_code(t) for t in self.hand],
            "melds": [m.to_dict() for m in self.melds],
            "win_tile": tile_code(self.win_tile),
        }
        out.update(self.flags())
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(", ", ": "))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WinningHand:
        return cls(
            hand=tuple(sorted(tile_id(t) for t in data["hand"])),
            melds=tuple(Meld.from_dict(m) for m in data.get("melds", [])),
            win_tile=tile_id(data["win_tile"]),
            context=WinContext(**{name: data[name] for name in FLAG_NAMES if name in data}),
        )

    @classmethod
    def from_json(cls, line: str) -> WinningHand:
        data = json.loads(line)
        if not isinstance(data, dict):
            raise ValueError(f"not a JSON object: {line!r}")
        return cls.from_dict(data)

    def describe(self) -> str:
        """A one-line readable form: codes, melds (kind, tiles, claimed, from) and flags."""
        melds = "; ".join(
            m.describe()
            + ("" if m.claimed is None else f" claimed {tile_code(m.claimed)}")
            + ("" if m.from_offset is None else f" from {m.from_offset}")
            for m in self.melds
        )
        c = self.context
        flags = [k for k in ("self_drawn", "last_copy", "last_tile", "kong_win")
                 if getattr(c, k)]
        return (
            f"hand {' '.join(tile_code(t) for t in self.hand)} | melds [{melds}] | "
            f"win {tile_code(self.win_tile)} | {' '.join(flags) or 'discard'} | "
            f"seat {c.seat_wind} prevalent {c.prevalent_wind} flowers {c.flowers}"
        )

    def key(self) -> tuple[Any, ...]:
        """Identity of the scoring input (shape/target excluded), for de-duplication."""
        return (
            self.hand,
            tuple((m.kind, m.tiles, m.claimed, m.from_offset) for m in self.melds),
            self.win_tile,
            self.context,
        )

    def all_counts(self) -> list[int]:
        """Counts of every tile the winner owns: standing tiles, the winning tile and melds."""
        counts = [0] * NUM_KINDS
        for t in self.hand:
            counts[t] += 1
        counts[self.win_tile] += 1
        for m in self.melds:
            for t in m.tiles:
                counts[t] += 1
        return counts


# --------------------------------------------------------------------------- validation


def validate_hand(h: WinningHand) -> list[str]:
    """Everything physically wrong with a hand (empty when it is valid).

    Completeness is not checked here (see :func:`mjenv.decompose.is_complete`)."""
    errors: list[str] = []
    counts = h.all_counts()
    for t, n in enumerate(counts):
        if n > 4:
            errors.append(f"{n} copies of {tile_code(t)}")
    if len(h.hand) != 13 - 3 * len(h.melds):
        errors.append(f"{len(h.hand)} standing tiles with {len(h.melds)} melds")
    if len(h.melds) > 4:
        errors.append("more than 4 melds")
    for m in h.melds:
        if m.kind == CHOW and m.from_offset != 3:
            errors.append(f"chow from {m.from_offset}")
        if m.kind == CONCEALED_KONG and (m.from_offset is not None or m.claimed is not None):
            errors.append("concealed kong with a supplier")
        if m.kind in (PUNG, KONG, ADDED_KONG) and m.from_offset not in (1, 2, 3):
            errors.append(f"{m.kind} from {m.from_offset}")
        if m.kind != CONCEALED_KONG and m.claimed is None:
            errors.append(f"{m.kind} without a claimed tile")
    # the flags alone are WinContext's to check (at construction); with the hand, its conflict()
    copies = sum(t == h.win_tile for t in h.hand) + sum(
        t == h.win_tile for m in h.melds for t in m.tiles)
    conflict = h.context.conflict(any(m.kind in KONG_KINDS for m in h.melds), h.win_tile, copies)
    if conflict:
        errors.append(conflict)
    if h.context.last_copy and h.win_tile in h.hand:
        errors.append("last copy while holding a copy of the winning tile")
    return errors


# --------------------------------------------------------------------------- flags


def random_flags(
    rng: np.random.Generator,
    hand: Sequence[int],
    melds: Sequence[Meld],
    win: int,
    *,
    self_drawn: bool | None = None,
    kong_win: bool | None = None,
    last_tile: bool | None = None,
    last_copy: bool | None = None,
    seat_wind: int | None = None,
    prevalent_wind: int | None = None,
    flowers: int | None = None,
) -> dict[str, Any] | None:
    """Plausible flags; a forced flag that cannot hold gives None."""
    sd = bool(rng.random() < 0.45) if self_drawn is None else self_drawn
    has_kong = any(m.kind in KONG_KINDS for m in melds)
    held = win in hand
    melded = any(win in m.tiles for m in melds)
    robbable = not held and not melded
    if kong_win is None:
        if sd and has_kong:
            kw = bool(rng.random() < 0.3)
        elif not sd and robbable:
            kw = bool(rng.random() < 0.12)
        else:
            kw = False
    else:
        kw = kong_win
    if kw and sd and not has_kong:
        return None
    if kw and not sd and not robbable:
        return None
    robbing = kw and not sd
    lt = last_tile if last_tile is not None else (not robbing and bool(rng.random() < 0.08))
    if lt and robbing:
        return None
    if last_copy is None:
        lc = False if held else bool(rng.random() < (0.05 if robbing else 0.18))
    else:
        lc = last_copy
    if lc and held:
        return None
    if flowers is None:
        flowers = 0 if rng.random() < 0.5 else int(rng.integers(1, 9))
    return {
        "self_drawn": sd,
        "kong_win": kw,
        "last_tile": lt,
        "last_copy": lc,
        "seat_wind": int(rng.integers(0, 4)) if seat_wind is None else seat_wind,
        "prevalent_wind": int(rng.integers(0, 4)) if prevalent_wind is None else prevalent_wind,
        "flowers": flowers,
    }


FlagOpts = dict[str, Any]


def _finish(
    rng: np.random.Generator,
    concealed: list[int],
    melds: list[Meld],
    win: int,
    shape: str,
    flag_opts: FlagOpts,
) -> WinningHand | None:
    hand = list(concealed)
    hand.remove(win)
    hand.sort()
    flags = random_flags(rng, hand, melds, win, **flag_opts)
    if flags is None:
        return None
    order = rng.permutation(len(melds))
    return WinningHand(
        hand=tuple(hand),
        melds=tuple(melds[int(i)] for i in order),
        win_tile=win,
        context=WinContext(**flags),
        shape=shape,
    )


# --------------------------------------------------------------------------- set sampling

SetSpec = tuple[str, int]  # ("chow", lowest tile) or ("pung", tile)
SetSampler = Callable[[np.random.Generator], SetSpec | None]


def C(tile: int) -> SetSpec:
    """The chow starting at ``tile``."""
    return ("chow", tile)


def P(tile: int) -> SetSpec:
    """The pung of ``tile``."""
    return ("pung", tile)


def _set_tiles(s: SetSpec) -> list[int]:
    kind, t = s
    return [t, t + 1, t + 2] if kind == "chow" else [t, t, t]


def chows_within(allowed: Sequence[int]) -> list[int]:
    """The lowest tiles of the chows made only of ``allowed`` tiles."""
    a = set(allowed)
    return [t for t in sorted(a) if t < EAST and t % 9 <= 6 and t + 1 in a and t + 2 in a]


def sampler(
    allowed: Sequence[int], pung_p: float = 0.35, chow_lows: Sequence[int] | None = None
) -> SetSampler:
    """Sets made only of ``allowed`` tiles: a pung with probability ``pung_p``, else a chow."""
    tiles = sorted(set(allowed))
    lows = chows_within(tiles) if chow_lows is None else list(chow_lows)

    def draw(rng: np.random.Generator) -> SetSpec | None:
        if lows and (not tiles or rng.random() >= pung_p):
            return C(lows[int(rng.integers(len(lows)))])
        if tiles:
            return P(tiles[int(rng.integers(len(tiles)))])
        return None

    return draw


def random_style(rng: np.random.Generator) -> tuple[list[int], float]:
    """A random tile pool (suits, honours, rank band) and a pung probability."""
    n_suits = int(rng.choice([1, 2, 3], p=[0.15, 0.3, 0.55]))
    suits = sorted(int(s) for s in rng.choice(3, size=n_suits, replace=False))
    if rng.random() < 0.12:  # dense: a narrow window of ranks, many overlapping readings
        width = int(rng.integers(3, 6))
        low = int(rng.integers(1, 11 - width))
        allowed = [st(s, r) for s in suits[:2] for r in range(low, low + width)]
        return allowed, float(rng.choice([0.2, 0.4, 0.6]))
    u = rng.random()
    if u < 0.08:
        ranks = list(range(2, 9))
    elif u < 0.12:
        ranks = list(range(1, 6))
    elif u < 0.16:
        ranks = list(range(5, 10))
    else:
        ranks = list(range(1, 10))
    allowed = [st(s, r) for s in suits for r in ranks]
    if rng.random() < 0.55:
        k = int(rng.integers(1, 8))
        allowed += sorted(int(t) for t in rng.choice(HONORS, size=k, replace=False))
    pung_p = float(rng.choice([0.1, 0.3, 0.5, 0.8]))
    return allowed, pung_p


def random_fill(rng: np.random.Generator) -> SetSampler:
    """A sampler of sets of a :func:`random_style`."""
    allowed, pung_p = random_style(rng)
    return sampler(allowed, pung_p)


def counts_of(sets: Sequence[SetSpec], pair: int | None = None) -> list[int]:
    """Tile counts of ``sets`` and the ``pair``."""
    c = [0] * NUM_KINDS
    for s in sets:
        for t in _set_tiles(s):
            c[t] += 1
    if pair is not None:
        c[pair] += 2
    return c


def _fill_sets(
    rng: np.random.Generator, fixed: Sequence[SetSpec], total: int, fill: SetSampler
) -> list[SetSpec] | None:
    sets = list(fixed)
    c = counts_of(sets)
    if max(c) > 4:
        return None
    tries = 0
    while len(sets) < total:
        tries += 1
        if tries > 60:
            return None
        s = fill(rng)
        if s is None:
            return None
        tiles = _set_tiles(s)
        if any(c[t] + tiles.count(t) > 4 for t in tiles):
            continue
        for t in tiles:
            c[t] += 1
        sets.append(s)
    return sets


def _pick_pair(
    rng: np.random.Generator, c: Sequence[int], allowed: Sequence[int], avoid: Sequence[int] = ()
) -> int | None:
    cands = [t for t in allowed if c[t] <= 2 and t not in avoid]
    if not cands:
        return None
    return int(cands[int(rng.integers(len(cands)))])


# --------------------------------------------------------------------------- regular hands

_MELD_COUNT_P = (0.3, 0.22, 0.2, 0.15, 0.13)


def _fixed_presentation(rng: np.random.Generator, p: str, kind: str, can_kong: bool,
                        kongs_ok: bool) -> str:
    """The meld kind (or HAND) that a requested presentation ``p`` of a set becomes."""
    if p in (HAND, CHOW, PUNG, KONG, ADDED_KONG, CONCEALED_KONG):
        return p
    if p == "exposed":
        return CHOW if kind == "chow" else PUNG
    if p == "xkong":
        return KONG if rng.random() < 0.55 else ADDED_KONG
    if p == "anykong":
        return str(rng.choice([KONG, ADDED_KONG, CONCEALED_KONG]))
    if p == "closed":
        return (CONCEALED_KONG if kind == "pung" and can_kong and kongs_ok and rng.random() < 0.3
                else HAND)
    if p == "nokong":
        return HAND if rng.random() < 0.5 else (CHOW if kind == "chow" else PUNG)
    raise ValueError(f"unknown presentation {p!r}")


def _fits(how: str, kind: str, can_kong: bool) -> bool:
    """Whether a set of ``kind`` can be shown as ``how``."""
    if how in KONG_KINDS and not can_kong:
        return False
    if how == CHOW and kind != "chow":
        return False
    return not (how in (PUNG, *KONG_KINDS) and kind != "pung")


def _random_meld_kind(rng: np.random.Generator, kind: str, can_kong: bool, exposed_ok: bool,
                      kongs_ok: bool) -> str | None:
    """A meld kind for a set drawn to be a meld (None: it cannot be one here)."""
    if kind == "chow":
        return CHOW if exposed_ok else None
    opts: list[str] = []
    weights: list[float] = []
    if exposed_ok:
        opts.append(PUNG)
        weights.append(0.6)
    if kongs_ok and can_kong:
        if exposed_ok:
            opts += [KONG, ADDED_KONG]
            weights += [0.14, 0.1]
        opts.append(CONCEALED_KONG)
        weights.append(0.16)
    if not opts:
        return None
    w = np.array(weights) / sum(weights)
    return str(rng.choice(opts, p=w))


def _choose_presentation(
    rng: np.random.Generator,
    sets: Sequence[SetSpec],
    counts: Sequence[int],
    pres: Sequence[str | None],
    n_melds: int | None,
    exposed_ok: bool,
    kongs_ok: bool,
) -> list[str] | None:
    """Resolve each set's presentation: HAND or a meld kind (None: the request cannot hold)."""
    out: list[str | None] = [None] * len(sets)
    free: list[int] = []

    def kong_ok(i: int) -> bool:
        kind, t = sets[i]
        return kind == "pung" and counts[t] == 3

    for i, p in enumerate(pres):
        if p is None:
            free.append(i)
            continue
        how = _fixed_presentation(rng, p, sets[i][0], kong_ok(i), kongs_ok)
        if not _fits(how, sets[i][0], kong_ok(i)):
            return None
        out[i] = how
    fixed_melds = sum(1 for p in out if p is not None and p != HAND)
    want = int(rng.choice(5, p=_MELD_COUNT_P)) if n_melds is None else n_melds
    want = max(want, fixed_melds)
    extra = want - fixed_melds
    if extra > len(free):
        if n_melds is not None:
            return None
        extra = len(free)
    order = [free[int(i)] for i in rng.permutation(len(free))]
    meld_idx = set(order[:extra])
    for i in free:
        if i not in meld_idx:
            out[i] = HAND
            continue
        how_free = _random_meld_kind(rng, sets[i][0], kong_ok(i), exposed_ok, kongs_ok)
        if how_free is None:
            return None
        out[i] = how_free
    return [p if p is not None else HAND for p in out]


def _make_meld(rng: np.random.Generator, s: SetSpec, how: str) -> Meld:
    kind, t = s
    if how == CHOW:
        return Meld.chow(t, t + int(rng.integers(3)))
    offset = int(rng.integers(1, 4))
    if how == PUNG:
        return Meld.pung(t, offset)
    if how == KONG:
        return Meld.kong(t, offset)
    if how == ADDED_KONG:
        return Meld.added_kong(t, offset)
    if how == CONCEALED_KONG:
        return Meld.concealed_kong(t)
    raise ValueError(how)


WinRule = str | Callable[[np.random.Generator, list[SetSpec], int, list[int]], int | None]


def _choose_win(
    rng: np.random.Generator,
    rule: WinRule,
    hand_sets: list[SetSpec],
    pair: int,
    all_counts: list[int],
    concealed: list[int],
) -> int | None:
    def pick(cands: Sequence[int]) -> int | None:
        return int(cands[int(rng.integers(len(cands)))]) if cands else None

    if callable(rule):
        return rule(rng, hand_sets, pair, concealed)
    if rule == "any":
        return pick(concealed)
    if rule == "pair":
        return pair
    ccount = [0] * NUM_KINDS
    for t in concealed:
        ccount[t] += 1
    if rule == "robbable":  # the only copy the winner has
        return pick([t for t in concealed if all_counts[t] == 1])
    if rule == "single":  # no other copy among the concealed tiles
        return pick([t for t in concealed if ccount[t] == 1])
    if rule == "edge":
        return pick(
            [t + 2 for k, t in hand_sets if k == "chow" and t % 9 == 0]
            + [t for k, t in hand_sets if k == "chow" and t % 9 == 6]
        )
    if rule == "closed":
        return pick([t + 1 for k, t in hand_sets if k == "chow"])
    if rule == "chow":
        return pick([x for s in hand_sets if s[0] == "chow" for x in _set_tiles(s)])
    if rule == "not_pung":
        return pick([x for s in hand_sets if s[0] == "chow" for x in _set_tiles(s)] + [pair])
    raise ValueError(f"unknown win rule {rule!r}")


def build_regular(
    rng: np.random.Generator,
    sets: Sequence[SetSpec] = (),
    *,
    fill: SetSampler | None = None,
    pair: int | None = None,
    pair_from: Sequence[int] | None = None,
    pair_avoid: Sequence[int] = (),
    pres: Sequence[str | None] | None = None,
    n_melds: int | None = None,
    exposed_ok: bool = True,
    kongs_ok: bool = True,
    win: WinRule = "any",
    wait: str | None = None,
    check: Callable[[WinningHand], bool] | None = None,
    tries: int = 40,
    **flag_opts: Any,
) -> WinningHand | None:
    """A regular hand containing ``sets`` (the others drawn from ``fill``) and a pair.

    ``pres`` gives a presentation per fixed set (None = random): ``"hand"``, a meld kind,
    ``"exposed"``, ``"xkong"`` (exposed or added kong), ``"anykong"``, ``"closed"`` (hand or
    concealed kong), ``"nokong"``. ``win`` chooses the winning tile among the concealed
    tiles (``"any"``, ``"pair"``, ``"robbable"``, ``"single"``, ``"edge"``, ``"closed"``,
    ``"chow"``, ``"not_pung"`` or a callable). ``wait`` = ``"unique"`` / ``"multi"`` keeps
    only hands whose winning tile is / is not the only wait. Flags not given are random.
    """
    if fill is None:
        allowed, pung_p = random_style(rng)
        fill = sampler(allowed, pung_p)
        default_pair_pool: Sequence[int] = allowed
    else:
        default_pair_pool = tuple(range(NUM_KINDS))
    for _ in range(tries):
        full = _fill_sets(rng, sets, 4, fill)
        if full is None:
            continue
        c = counts_of(full)
        if pair is not None:
            if c[pair] > 2:
                continue
            p = pair
        else:
            pool = pair_from if pair_from is not None else default_pair_pool
            got = _pick_pair(rng, c, pool, pair_avoid)
            if got is None:
                continue
            p = got
        c[p] += 2
        pr: list[str | None] = list(pres) if pres is not None else []
        pr += [None] * (len(full) - len(pr))
        how = _choose_presentation(rng, full, c, pr, n_melds, exposed_ok, kongs_ok)
        if how is None:
            continue
        melds: list[Meld] = []
        hand_sets: list[SetSpec] = []
        concealed: list[int] = [p, p]
        all_counts = list(c)
        for s, h in zip(full, how, strict=True):
            if h == HAND:
                hand_sets.append(s)
                concealed += _set_tiles(s)
            else:
                melds.append(_make_meld(rng, s, h))
                if h in KONG_KINDS:
                    all_counts[s[1]] += 1
        w = _choose_win(rng, win, hand_sets, p, all_counts, concealed)
        if w is None:
            continue
        hand = _finish(rng, concealed, melds, w, "regular", flag_opts)
        if hand is None:
            continue
        if wait is not None:
            ws = waiting_tiles(hand.hand, hand.melds)
            if (wait == "unique") != (ws == [w]):
                continue
        if check is not None and not check(hand):
            continue
        return hand
    return None


# --------------------------------------------------------------------------- special shapes


def build_seven_pairs(
    rng: np.random.Generator,
    allowed: Sequence[int] | None = None,
    *,
    kinds: Sequence[int] | None = None,
    double_p: float = 0.15,
    **flag_opts: Any,
) -> WinningHand | None:
    """Seven pairs from ``allowed`` kinds (or exactly ``kinds``, one pair each)."""
    if kinds is None:
        pool = list(range(NUM_KINDS)) if allowed is None else list(allowed)
        n_double = 1 if rng.random() < double_p else 0
        if len(pool) < 7 - n_double:
            n_double = 7 - len(pool)
        if n_double > 3 or len(pool) < 7 - n_double:
            return None
        ks = [int(t) for t in rng.choice(pool, size=7 - n_double, replace=False)]
        ks += ks[:n_double]
    else:
        ks = list(kinds)
    concealed = sorted(t for k in ks for t in (k, k))
    w = int(concealed[int(rng.integers(len(concealed)))])
    return _finish(rng, concealed, [], w, "seven_pairs", flag_opts)


def build_thirteen_orphans(rng: np.random.Generator, **flag_opts: Any) -> WinningHand | None:
    concealed = [*ORPHANS, int(rng.choice(ORPHANS))]
    w = int(concealed[int(rng.integers(14))])
    return _finish(rng, sorted(concealed), [], w, "thirteen_orphans", flag_opts)


def build_honors_knitted(
    rng: np.random.Generator, n_honors: int | None = None, **flag_opts: Any
) -> WinningHand | None:
    """全不靠 (5 or 6 honours) or 七星不靠 (7 honours)."""
    if n_honors is None:
        n_honors = int(rng.choice([5, 6, 7], p=[0.35, 0.35, 0.3]))
    knit = list(_KNITS[int(rng.integers(6))])
    suited = [int(t) for t in rng.choice(knit, size=14 - n_honors, replace=False)]
    honors = [int(t) for t in rng.choice(HONORS, size=n_honors, replace=False)]
    concealed = sorted(suited + honors)
    w = int(concealed[int(rng.integers(14))])
    return _finish(rng, concealed, [], w, "honors_knitted", flag_opts)


def build_knitted_straight(
    rng: np.random.Generator,
    *,
    fill: SetSampler | None = None,
    meld: bool | None = None,
    win: str = "any",
    **flag_opts: Any,
) -> WinningHand | None:
    """A full knitted straight + one set (melded or not) + a pair."""
    knit = list(_KNITS[int(rng.integers(6))])
    if fill is None:
        allowed, pung_p = random_style(rng)
        fill = sampler(allowed + list(HONORS), pung_p)
    for _ in range(30):
        s = fill(rng)
        if s is None:
            return None
        c = [0] * NUM_KINDS
        for t in knit + _set_tiles(s):
            c[t] += 1
        p = _pick_pair(rng, c, list(range(NUM_KINDS)))
        if p is None:
            continue
        c[p] += 2
        if max(c) > 4:
            continue
        do_meld = bool(rng.random() < 0.45) if meld is None else meld
        melds: list[Meld] = []
        concealed = knit + [p, p]
        if do_meld:
            opts = [CHOW] if s[0] == "chow" else [PUNG, PUNG, KONG, ADDED_KONG, CONCEALED_KONG]
            how = str(rng.choice(opts))
            if how in KONG_KINDS and c[s[1]] != 3:
                how = PUNG
            melds.append(_make_meld(rng, s, how))
        else:
            concealed += _set_tiles(s)
        if win == "any":
            w = int(concealed[int(rng.integers(len(concealed)))])
        elif win == "knit":
            w = int(knit[int(rng.integers(9))])
        else:  # "extra": the set or the pair
            extra = [t for t in concealed if t not in knit or concealed.count(t) > 1]
            w = int(extra[int(rng.integers(len(extra)))])
        hand = _finish(rng, sorted(concealed), melds, w, "knitted_straight", flag_opts)
        if hand is not None:
            return hand
    return None


def build_nine_gates(rng: np.random.Generator, **flag_opts: Any) -> WinningHand | None:
    s = int(rng.integers(3))
    base = [st(s, r) for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    w = st(s, int(rng.integers(1, 10)))
    return _finish(rng, sorted([*base, w]), [], w, "regular", flag_opts)


# --------------------------------------------------------------------------- random hands


def random_winning_hand(rng: np.random.Generator, shape: str | None = None) -> WinningHand:
    """A random, physically valid complete hand of ``shape`` (random by SHAPE_WEIGHTS if None)."""
    if shape is None:
        shape = SHAPES[int(rng.choice(len(SHAPES), p=SHAPE_WEIGHTS))]
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}: use one of {', '.join(SHAPES)}")
    while True:
        hand: WinningHand | None
        if shape == "regular":
            hand = build_regular(rng)
        elif shape == "seven_pairs":
            allowed, _ = random_style(rng)
            hand = build_seven_pairs(rng, allowed)
        elif shape == "thirteen_orphans":
            hand = build_thirteen_orphans(rng)
        elif shape == "honors_knitted":
            hand = build_honors_knitted(rng)
        else:
            hand = build_knitted_straight(rng)
        if hand is not None:
            return hand
