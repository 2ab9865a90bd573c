"""Random, physically valid hands for tests and benchmarks.

Everything here is built from tile counts alone; no reference calculator is used, so the
hands can be fed both to :func:`mjenv.fans.calculate` and to an oracle. Where completeness or
waits matter (non-winning samples, hands built for a single wait) the shape checks of
:mod:`mjenv.decompose` answer; tests cross-check those against a brute-force reference.

* :func:`random_winning_hand` builds a complete hand of a given (or random) shape with
  0-4 melds of every kind and a plausible set of flags.
* :func:`targeted_hand` builds a hand meant to contain one named fan (the 81 fans and
  明暗杠), so that rare fans appear in a test set.
* :func:`sample_hands` mixes both, deterministically for a seed.
* :func:`sample_non_winning` and :func:`sample_tenpai` give inputs for "not a win" tests
  and for waiting-tile benchmarks.

Physical validity means: at most 4 copies of each tile kind counting melds, chows only of
three consecutive suited tiles, 13 - 3 * melds concealed tiles before the win, and flags that
can happen at a table (a kong-replacement win needs a kong; robbing a kong needs that the
winner neither holds nor has melded a copy of the tile and is never the last tile; 和绝张
only when the winner holds no copy of the winning tile among the concealed tiles).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from mjenv.decompose import HONORS, KNITTED_PATTERNS, ORPHANS, waiting_tiles
from mjenv.fans.table import FANS
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

FAN_NAMES: tuple[str, ...] = tuple(fan.zh for fan in FANS)
"""The 82 entries in table order (ids 1..82): the 81 fans and the 明暗杠 extension."""

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
_EXPOSED_KINDS = (CHOW, PUNG, KONG, ADDED_KONG)


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
    self_drawn: bool = False
    last_copy: bool = False
    last_tile: bool = False
    kong_win: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0
    flowers: int = 0
    shape: str = "regular"
    target: str | None = None

    def flags(self) -> dict[str, Any]:
        return {
            "self_drawn": self.self_drawn,
            "last_copy": self.last_copy,
            "last_tile": self.last_tile,
            "kong_win": self.kong_win,
            "seat_wind": self.seat_wind,
            "prevalent_wind": self.prevalent_wind,
            "flowers": self.flowers,
        }

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``calculate(hand, melds, win_tile, **kwargs)``."""
        return self.flags()

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
            self_drawn=bool(data.get("self_drawn", False)),
            last_copy=bool(data.get("last_copy", False)),
            last_tile=bool(data.get("last_tile", False)),
            kong_win=bool(data.get("kong_win", False)),
            seat_wind=int(data.get("seat_wind", 0)),
            prevalent_wind=int(data.get("prevalent_wind", 0)),
            flowers=int(data.get("flowers", 0)),
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
        names = ("self_drawn", "last_copy", "last_tile", "kong_win")
        flags = [k for k in names if getattr(self, k)]
        return (
            f"hand {' '.join(tile_code(t) for t in self.hand)} | melds [{melds}] | "
            f"win {tile_code(self.win_tile)} | {' '.join(flags) or 'discard'} | "
            f"seat {self.seat_wind} prevalent {self.prevalent_wind} flowers {self.flowers}"
        )

    def key(self) -> tuple[Any, ...]:
        """Identity of the scoring input (shape/target excluded), for de-duplication."""
        return (
            self.hand,
            tuple((m.kind, m.tiles, m.claimed, m.from_offset) for m in self.melds),
            self.win_tile,
            self.self_drawn,
            self.last_copy,
            self.last_tile,
            self.kong_win,
            self.seat_wind,
            self.prevalent_wind,
            self.flowers,
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
    held = h.win_tile in h.hand
    melded = any(h.win_tile in m.tiles for m in h.melds)
    has_kong = any(m.kind in KONG_KINDS for m in h.melds)
    if h.kong_win and h.self_drawn and not has_kong:
        errors.append("kong replacement win without a kong")
    if h.kong_win and not h.self_drawn:
        if held or melded:
            errors.append("robbing a kong of a tile the winner holds or melded")
        if h.last_tile:
            errors.append("robbing a kong with the last tile")
    if h.last_copy and held:
        errors.append("last copy while holding a copy of the winning tile")
    if not 0 <= h.seat_wind <= 3 or not 0 <= h.prevalent_wind <= 3:
        errors.append("wind outside 0..3")
    if not 0 <= h.flowers <= 8:
        errors.append("flowers outside 0..8")
    return errors


# --------------------------------------------------------------------------- flags


def _flags(
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
    flags = _flags(rng, hand, melds, win, **flag_opts)
    if flags is None:
        return None
    order = rng.permutation(len(melds))
    return WinningHand(
        hand=tuple(hand),
        melds=tuple(melds[int(i)] for i in order),
        win_tile=win,
        shape=shape,
        **flags,
    )


# --------------------------------------------------------------------------- set sampling

SetSpec = tuple[str, int]  # ("chow", lowest tile) or ("pung", tile)
SetSampler = Callable[[np.random.Generator], SetSpec | None]


def C(tile: int) -> SetSpec:
    return ("chow", tile)


def P(tile: int) -> SetSpec:
    return ("pung", tile)


def _set_tiles(s: SetSpec) -> list[int]:
    kind, t = s
    return [t, t + 1, t + 2] if kind == "chow" else [t, t, t]


def _chow_lows(allowed: Sequence[int]) -> list[int]:
    a = set(allowed)
    return [t for t in sorted(a) if t < EAST and t % 9 <= 6 and t + 1 in a and t + 2 in a]


def sampler(
    allowed: Sequence[int], pung_p: float = 0.35, chow_lows: Sequence[int] | None = None
) -> SetSampler:
    """Sets made only of ``allowed`` tiles: a pung with probability ``pung_p``, else a chow."""
    tiles = sorted(set(allowed))
    lows = _chow_lows(tiles) if chow_lows is None else list(chow_lows)

    def draw(rng: np.random.Generator) -> SetSpec | None:
        if lows and (not tiles or rng.random() >= pung_p):
            return C(lows[int(rng.integers(len(lows)))])
        if tiles:
            return P(tiles[int(rng.integers(len(tiles)))])
        return None

    return draw


def _random_style(rng: np.random.Generator) -> tuple[list[int], float]:
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


def _counts_of(sets: Sequence[SetSpec], pair: int | None = None) -> list[int]:
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
    c = _counts_of(sets)
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


def _choose_presentation(
    rng: np.random.Generator,
    sets: Sequence[SetSpec],
    counts: Sequence[int],
    pres: Sequence[str | None],
    n_melds: int | None,
    exposed_ok: bool,
    kongs_ok: bool,
) -> list[str] | None:
    """Resolve each set's presentation: HAND or a meld kind."""
    n = len(sets)
    out: list[str | None] = [None] * n
    free: list[int] = []

    def kong_ok(i: int) -> bool:
        kind, t = sets[i]
        return kind == "pung" and counts[t] == 3

    for i, p in enumerate(pres):
        kind = sets[i][0]
        if p is None:
            free.append(i)
            continue
        if p in (HAND, CHOW, PUNG, KONG, ADDED_KONG, CONCEALED_KONG):
            out[i] = p
        elif p == "exposed":
            out[i] = CHOW if kind == "chow" else PUNG
        elif p == "xkong":
            out[i] = KONG if rng.random() < 0.55 else ADDED_KONG
        elif p == "anykong":
            out[i] = str(rng.choice([KONG, ADDED_KONG, CONCEALED_KONG]))
        elif p == "closed":
            out[i] = (
                CONCEALED_KONG
                if kind == "pung" and kong_ok(i) and kongs_ok and rng.random() < 0.3
                else HAND
            )
        elif p == "nokong":
            out[i] = HAND if rng.random() < 0.5 else (CHOW if kind == "chow" else PUNG)
        else:
            raise ValueError(f"unknown presentation {p!r}")
        if out[i] in KONG_KINDS and not kong_ok(i):
            return None
        if out[i] == CHOW and kind != "chow":
            return None
        if out[i] in (PUNG, *KONG_KINDS) and kind != "pung":
            return None
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
        kind, _t = sets[i]
        if i not in meld_idx:
            out[i] = HAND
            continue
        if kind == "chow":
            if not exposed_ok:
                return None
            out[i] = CHOW
            continue
        opts: list[str] = []
        weights: list[float] = []
        if exposed_ok:
            opts.append(PUNG)
            weights.append(0.6)
        if kongs_ok and kong_ok(i):
            if exposed_ok:
                opts += [KONG, ADDED_KONG]
                weights += [0.14, 0.1]
            opts.append(CONCEALED_KONG)
            weights.append(0.16)
        if not opts:
            return None
        w = np.array(weights) / sum(weights)
        out[i] = str(rng.choice(opts, p=w))
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
        allowed, pung_p = _random_style(rng)
        fill = sampler(allowed, pung_p)
        default_pair_pool: Sequence[int] = allowed
    else:
        default_pair_pool = tuple(range(NUM_KINDS))
    for _ in range(tries):
        full = _fill_sets(rng, sets, 4, fill)
        if full is None:
            continue
        c = _counts_of(full)
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
        allowed, pung_p = _random_style(rng)
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
            allowed, _ = _random_style(rng)
            hand = build_seven_pairs(rng, allowed)
        elif shape == "thirteen_orphans":
            hand = build_thirteen_orphans(rng)
        elif shape == "honors_knitted":
            hand = build_honors_knitted(rng)
        else:
            hand = build_knitted_straight(rng)
        if hand is not None:
            return hand


# --------------------------------------------------------------------------- targeted hands


def _suit(rng: np.random.Generator) -> int:
    return int(rng.integers(3))


def _perm(rng: np.random.Generator) -> tuple[int, int, int]:
    p = rng.permutation(3)
    return int(p[0]), int(p[1]), int(p[2])


def _any_fill(rng: np.random.Generator) -> SetSampler:
    allowed, pung_p = _random_style(rng)
    return sampler(allowed, pung_p)


def _suited_ranks(ranks: Sequence[int], suits: Sequence[int] = (0, 1, 2)) -> list[int]:
    return [st(s, r) for s in suits for r in ranks]


def _chicken(rng: np.random.Generator) -> WinningHand | None:
    """无番和: three suits, one honour pair, unrelated sets, an exposed meld, a two-sided
    discard win and no other fan."""
    honour = int(rng.choice([*WINDS, RED, GREEN_DRAGON]))
    for _ in range(60):
        n_chows = int(rng.choice([3, 4], p=[0.6, 0.4]))
        chows: list[int] = []
        for _k in range(n_chows):
            chows.append(st(_suit(rng), int(rng.integers(1, 8))))
        pungs = [st(_suit(rng), int(rng.integers(2, 9))) for _k in range(4 - n_chows)]
        if _chows_related(chows) or len({t % 9 for t in pungs}) < len(pungs):
            continue
        sets = [C(t) for t in chows] + [P(t) for t in pungs]
        c = _counts_of(sets, honour)
        if max(c) > 3 or {t // 9 for t in chows + pungs} != {0, 1, 2}:
            continue
        if all(t % 9 in (0, 6) for t in chows):  # all chows 123/789: outside hand
            continue
        n_melds = int(rng.integers(1, 4))
        pres: list[str | None] = [None] * 4
        hand = build_regular(
            rng,
            sets,
            fill=sampler([]),
            pair=honour,
            pres=pres,
            n_melds=n_melds,
            kongs_ok=False,
            win="chow",
            wait="multi",
            tries=6,
            self_drawn=False,
            kong_win=False,
            last_tile=False,
            last_copy=False,
            seat_wind=int(rng.integers(4)),
            prevalent_wind=int(rng.integers(4)),
        )
        if hand is None:
            continue
        if all(m.kind != CHOW and m.kind != PUNG for m in hand.melds):
            continue
        return hand
    return None


def _chows_related(lows: Sequence[int]) -> bool:
    """Whether any chow fan (pair or triple) can be formed by the chows."""
    n = len(lows)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = lows[i], lows[j]
            if a % 9 == b % 9:
                return True
            if a // 9 == b // 9 and abs(a - b) in (3, 6):
                return True
    for i in range(n):
        for j in range(n):
            for k in range(n):
                if len({i, j, k}) < 3:
                    continue
                a, b, c = lows[i], lows[j], lows[k]
                ra, rb, rc = a % 9, b % 9, c % 9
                same = a // 9 == b // 9 == c // 9
                distinct = len({a // 9, b // 9, c // 9}) == 3
                if rb == ra + 1 and rc == ra + 2 and (same or distinct):
                    return True
                if rb == ra + 2 and rc == ra + 4 and same:
                    return True
                if ra == 0 and rb == 3 and rc == 6 and distinct:
                    return True
    return False


def _wind_pung_hand(rng: np.random.Generator, which: str) -> WinningHand | None:
    w = int(rng.choice(WINDS))
    other = int(rng.integers(4))
    if which == "圈风刻":
        seat, prev = other, w - EAST
    elif which == "门风刻":
        seat, prev = w - EAST, other
    else:  # 幺九刻 of a wind
        winds = [x for x in range(4) if x != w - EAST]
        seat, prev = int(rng.choice(winds)), int(rng.choice(winds))
    return build_regular(rng, [P(w)], fill=_any_fill(rng), seat_wind=seat, prevalent_wind=prev)


def _four_pungs(rng: np.random.Generator, tiles: Sequence[int], k: int = 4) -> list[SetSpec]:
    return [P(int(t)) for t in rng.choice(tiles, size=k, replace=False)]


def _targeted(rng: np.random.Generator, fan: str) -> WinningHand | None:
    s = _suit(rng)
    a, b, c = _perm(rng)
    r = build_regular
    fill = _any_fill(rng)
    if fan == "大四喜":
        return r(rng, [P(t) for t in WINDS], fill=fill)
    if fan == "大三元":
        return r(rng, [P(t) for t in DRAGONS], fill=fill)
    if fan == "绿一色":
        return r(rng, fill=sampler(GREEN, float(rng.choice([0.2, 0.5]))), pair_from=GREEN)
    if fan == "九莲宝灯":
        return build_nine_gates(rng)
    if fan == "四杠":
        return r(rng, _four_pungs(rng, range(NUM_KINDS)), pres=["anykong"] * 4, win="pair")
    if fan == "连七对":
        start = int(rng.integers(1, 4))
        return build_seven_pairs(rng, kinds=[st(s, start + i) for i in range(7)])
    if fan == "十三幺":
        return build_thirteen_orphans(rng)
    if fan == "清幺九":
        if rng.random() < 0.3:
            return build_seven_pairs(rng, TERMINALS)
        return r(rng, _four_pungs(rng, TERMINALS), pair_from=TERMINALS)
    if fan == "小四喜":
        ws = [int(t) for t in rng.permutation(WINDS)]
        return r(rng, [P(t) for t in ws[:3]], fill=fill, pair=ws[3])
    if fan == "小三元":
        ds = [int(t) for t in rng.permutation(DRAGONS)]
        return r(rng, [P(ds[0]), P(ds[1])], fill=fill, pair=ds[2])
    if fan == "字一色":
        if rng.random() < 0.25:
            return build_seven_pairs(rng, kinds=HONORS)
        return r(rng, _four_pungs(rng, HONORS), pair_from=HONORS)
    if fan == "四暗刻":
        sd = bool(rng.random() < 0.5)
        return r(
            rng,
            _four_pungs(rng, range(NUM_KINDS)),
            pres=["closed"] * 4,
            win="any" if sd else "pair",
            self_drawn=sd,
        )
    if fan == "一色双龙会":
        return r(rng, [C(st(s, 1)), C(st(s, 1)), C(st(s, 7)), C(st(s, 7))], pair=st(s, 5))
    if fan == "一色四同顺":
        return r(rng, [C(st(s, int(rng.integers(1, 8))))] * 4, fill=fill)
    if fan == "一色四节高":
        k = int(rng.integers(1, 7))
        return r(rng, [P(st(s, k + i)) for i in range(4)], fill=fill)
    if fan == "一色四步高":
        if rng.random() < 0.7:
            k = int(rng.integers(1, 5))
            return r(rng, [C(st(s, k + i)) for i in range(4)], fill=fill)
        return r(rng, [C(st(s, 1 + 2 * i)) for i in range(4)], fill=fill)
    if fan == "三杠":
        return r(rng, _four_pungs(rng, range(NUM_KINDS), 3), fill=fill, pres=["anykong"] * 3)
    if fan == "混幺九":
        if rng.random() < 0.3:
            return build_seven_pairs(rng, ORPHANS)
        ts = [int(rng.choice(TERMINALS)), int(rng.choice(HONORS))]
        rest = [t for t in ORPHANS if t not in ts]
        ts += [int(t) for t in rng.choice(rest, size=2, replace=False)]
        return r(rng, [P(t) for t in ts], pair_from=ORPHANS)
    if fan == "七对":
        allowed, _ = _random_style(rng)
        return build_seven_pairs(rng, allowed)
    if fan == "七星不靠":
        return build_honors_knitted(rng, 7)
    if fan == "全双刻":
        evens = _suited_ranks((2, 4, 6, 8))
        return r(rng, _four_pungs(rng, evens), pair_from=evens)
    if fan == "清一色":
        pool = _suited_ranks(range(1, 10), [s])
        if rng.random() < 0.15:
            return build_seven_pairs(rng, pool)
        return r(rng, fill=sampler(pool, float(rng.choice([0.1, 0.3, 0.6]))), pair_from=pool)
    if fan == "一色三同顺":
        return r(rng, [C(st(s, int(rng.integers(1, 8))))] * 3, fill=fill)
    if fan == "一色三节高":
        k = int(rng.integers(1, 8))
        return r(rng, [P(st(s, k + i)) for i in range(3)], fill=fill)
    if fan in ("全大", "全中", "全小", "大于五", "小于五", "断幺"):
        ranks = {
            "全大": (7, 8, 9),
            "全中": (4, 5, 6),
            "全小": (1, 2, 3),
            "大于五": (6, 7, 8, 9),
            "小于五": (1, 2, 3, 4),
            "断幺": tuple(range(2, 9)),
        }[fan]
        suits = sorted(int(x) for x in rng.choice(3, size=int(rng.integers(1, 4)), replace=False))
        pool = _suited_ranks(ranks, suits)
        if rng.random() < 0.12:
            return build_seven_pairs(rng, pool)
        return r(rng, fill=sampler(pool, float(rng.choice([0.2, 0.5]))), pair_from=pool)
    if fan == "清龙":
        return r(rng, [C(st(s, 1)), C(st(s, 4)), C(st(s, 7))], fill=fill)
    if fan == "三色双龙会":
        return r(rng, [C(st(a, 1)), C(st(a, 7)), C(st(b, 1)), C(st(b, 7))], pair=st(c, 5))
    if fan == "一色三步高":
        if rng.random() < 0.6:
            k = int(rng.integers(1, 6))
            return r(rng, [C(st(s, k + i)) for i in range(3)], fill=fill)
        k = int(rng.integers(1, 4))
        return r(rng, [C(st(s, k + 2 * i)) for i in range(3)], fill=fill)
    if fan == "全带五":
        lows = [st(x, k) for x in range(3) for k in (3, 4, 5)]
        fives = [st(x, 5) for x in range(3)]
        return r(rng, fill=sampler(fives, 0.3, chow_lows=lows), pair_from=fives)
    if fan == "三同刻":
        k = int(rng.integers(1, 10))
        return r(rng, [P(st(x, k)) for x in range(3)], fill=fill)
    if fan == "三暗刻":
        pungs = _four_pungs(rng, range(NUM_KINDS), 3)
        sd = bool(rng.random() < 0.4)
        return r(
            rng,
            pungs,
            fill=fill,
            pres=["closed"] * 3,
            win="any" if sd else "not_pung",
            self_drawn=sd,
        )
    if fan == "全不靠":
        return build_honors_knitted(rng, int(rng.choice([5, 6])))
    if fan == "组合龙":
        if rng.random() < 0.25:
            return build_honors_knitted(rng, 5)
        return build_knitted_straight(rng)
    if fan == "三风刻":
        ws = [int(t) for t in rng.permutation(WINDS)]
        return r(
            rng,
            [P(t) for t in ws[:3]],
            fill=sampler([*SUITED, *DRAGONS], 0.3),
            pair_from=[*SUITED, *DRAGONS],
        )
    if fan == "花龙":
        return r(rng, [C(st(a, 1)), C(st(b, 4)), C(st(c, 7))], fill=fill)
    if fan == "推不倒":
        if rng.random() < 0.12:
            return build_seven_pairs(rng, REVERSIBLE)
        return r(rng, fill=sampler(REVERSIBLE, float(rng.choice([0.3, 0.6]))), pair_from=REVERSIBLE)
    if fan == "三色三同顺":
        k = int(rng.integers(1, 8))
        return r(rng, [C(st(x, k)) for x in range(3)], fill=fill)
    if fan == "三色三节高":
        k = int(rng.integers(1, 8))
        return r(rng, [P(st(a, k)), P(st(b, k + 1)), P(st(c, k + 2))], fill=fill)
    if fan == "无番和":
        return _chicken(rng)
    if fan == "妙手回春":
        return r(rng, fill=fill, self_drawn=True, last_tile=True)
    if fan == "海底捞月":
        return r(rng, fill=fill, self_drawn=False, last_tile=True, kong_win=False)
    if fan == "杠上开花":
        return r(
            rng,
            [P(int(rng.integers(NUM_KINDS)))],
            fill=fill,
            pres=["anykong"],
            self_drawn=True,
            kong_win=True,
        )
    if fan == "抢杠和":
        return r(rng, fill=fill, win="robbable", self_drawn=False, kong_win=True, last_tile=False)
    if fan == "碰碰和":
        return r(rng, _four_pungs(rng, range(NUM_KINDS)), n_melds=int(rng.integers(1, 5)))
    if fan == "混一色":
        pool = _suited_ranks(range(1, 10), [s]) + list(HONORS)
        fill2 = sampler(pool, 0.4)

        def mixed(h: WinningHand) -> bool:
            cs = h.all_counts()
            return any(cs[t] for t in HONORS) and any(cs[t] for t in range(EAST))

        if rng.random() < 0.12:
            return build_seven_pairs(rng, pool)
        return r(rng, fill=fill2, pair_from=pool, check=mixed)
    if fan == "三色三步高":
        k = int(rng.integers(1, 6))
        return r(rng, [C(st(a, k)), C(st(b, k + 1)), C(st(c, k + 2))], fill=fill)
    if fan == "五门齐":
        wind, dragon = int(rng.choice(WINDS)), int(rng.choice(DRAGONS))
        sets = [C(st(a, int(rng.integers(1, 8)))), C(st(b, int(rng.integers(1, 8))))]
        if rng.random() < 0.5:
            sets += [P(dragon), C(st(c, int(rng.integers(1, 8))))]
            return r(rng, sets, fill=fill, pair=wind)
        sets += [P(wind), P(st(c, int(rng.integers(1, 10))))]
        return r(rng, sets, fill=fill, pair=dragon)
    if fan == "全求人":
        return r(rng, fill=fill, pres=["exposed"] * 4, win="pair", self_drawn=False, kong_win=False)
    if fan == "双暗杠":
        return r(
            rng,
            _four_pungs(rng, range(NUM_KINDS), 2),
            fill=fill,
            pres=[CONCEALED_KONG] * 2,
            kongs_ok=False,
        )
    if fan == "双箭刻":
        ds = [int(t) for t in rng.permutation(DRAGONS)]
        return r(
            rng,
            [P(ds[0]), P(ds[1])],
            fill=sampler([*SUITED, *WINDS], 0.35),
            pair_avoid=[ds[2]],
            pair_from=[*SUITED, *WINDS],
        )
    if fan == "全带幺":
        lows = [st(x, k) for x in range(3) for k in (1, 7)]
        fill2 = sampler(ORPHANS, 0.35, chow_lows=lows)
        return r(rng, [C(lows[int(rng.integers(6))])], fill=fill2, pair_from=ORPHANS)
    if fan == "不求人":
        return r(rng, fill=fill, exposed_ok=False, self_drawn=True)
    if fan == "双明杠":
        return r(
            rng,
            _four_pungs(rng, range(NUM_KINDS), 2),
            fill=fill,
            pres=["xkong"] * 2,
            kongs_ok=False,
        )
    if fan == "和绝张":
        if rng.random() < 0.35:  # three copies in the winner's own pung: forced (rules §3.1)
            t = int(rng.integers(EAST))
            rank = t % 9 + 1
            low = t - int(rng.integers(max(0, rank - 7), min(2, rank - 1) + 1))
            return r(
                rng,
                [P(t), C(low)],
                fill=fill,
                pres=[PUNG, HAND],
                win=lambda *_: t,
                last_copy=bool(rng.random() < 0.5),
                kong_win=False,
            )
        return r(rng, fill=fill, win="single", last_copy=True, kong_win=False)
    if fan == "箭刻":
        return r(
            rng,
            [P(int(rng.choice(DRAGONS)))],
            fill=sampler([*SUITED, *WINDS], 0.35),
            pair_from=[*SUITED, *WINDS],
        )
    if fan in ("圈风刻", "门风刻"):
        return _wind_pung_hand(rng, fan)
    if fan == "门前清":
        return r(rng, fill=fill, exposed_ok=False, self_drawn=False, kong_win=False)
    if fan == "平和":
        lows = _chow_lows(SUITED)
        return r(rng, fill=sampler([], 0.0, chow_lows=lows), pair_from=SUITED)
    if fan == "四归一":
        t = int(rng.integers(EAST))
        rank = t % 9 + 1
        low = t - int(rng.integers(max(0, rank - 7), min(2, rank - 1) + 1))
        if rng.random() < 0.6:
            return r(rng, [P(t), C(low)], fill=fill, pres=["nokong", None])
        low2 = t - int(rng.integers(max(0, rank - 7), min(2, rank - 1) + 1))
        return r(rng, [C(low), C(low2)], fill=fill, pair=t)
    if fan == "双同刻":
        k = int(rng.integers(1, 10))
        return r(rng, [P(st(a, k)), P(st(b, k))], fill=fill)
    if fan == "双暗刻":
        sd = bool(rng.random() < 0.4)
        return r(
            rng,
            _four_pungs(rng, range(NUM_KINDS), 2),
            fill=fill,
            pres=["closed"] * 2,
            win="any" if sd else "not_pung",
            self_drawn=sd,
        )
    if fan == "暗杠":
        return r(
            rng, [P(int(rng.integers(NUM_KINDS)))], fill=fill, pres=[CONCEALED_KONG], kongs_ok=False
        )
    if fan == "明杠":
        return r(rng, [P(int(rng.integers(NUM_KINDS)))], fill=fill, pres=["xkong"], kongs_ok=False)
    if fan == "明暗杠":
        return r(
            rng,
            _four_pungs(rng, range(NUM_KINDS), 2),
            fill=fill,
            pres=["xkong", CONCEALED_KONG],
            kongs_ok=False,
        )
    if fan == "一般高":
        return r(rng, [C(st(s, int(rng.integers(1, 8))))] * 2, fill=fill)
    if fan == "喜相逢":
        k = int(rng.integers(1, 8))
        return r(rng, [C(st(a, k)), C(st(b, k))], fill=fill)
    if fan == "连六":
        k = int(rng.integers(1, 5))
        return r(rng, [C(st(s, k)), C(st(s, k + 3))], fill=fill)
    if fan == "老少副":
        return r(rng, [C(st(s, 1)), C(st(s, 7))], fill=fill)
    if fan == "幺九刻":
        if rng.random() < 0.3:
            return _wind_pung_hand(rng, fan)
        return r(rng, [P(int(rng.choice(TERMINALS)))], fill=fill)
    if fan == "缺一门":
        pool = _suited_ranks(range(1, 10), [a, b])
        if rng.random() < 0.5:
            pool += [int(t) for t in rng.choice(HONORS, size=3, replace=False)]
        return r(rng, fill=sampler(pool, 0.35), pair_from=pool)
    if fan == "无字":
        return r(rng, fill=sampler(SUITED, float(rng.choice([0.2, 0.5]))), pair_from=SUITED)
    if fan == "边张":
        return r(
            rng, fill=fill, win="edge", wait="unique", n_melds=int(rng.integers(0, 4)), tries=80
        )
    if fan == "坎张":
        return r(
            rng, fill=fill, win="closed", wait="unique", n_melds=int(rng.integers(0, 4)), tries=80
        )
    if fan == "单钓将":
        return r(rng, fill=fill, win="pair", wait="unique", tries=80)
    if fan == "自摸":
        return r(rng, fill=fill, self_drawn=True)
    if fan == "花牌":
        return r(rng, fill=fill, flowers=int(rng.integers(1, 9)))
    raise ValueError(f"unknown fan {fan!r}")


def targeted_hand(rng: np.random.Generator, fan_zh: str) -> WinningHand:
    """A valid complete hand built to contain ``fan_zh`` (one of FAN_NAMES).

    The hand is constructed so that the fan's pattern is present; a higher reading of the
    same tiles may still absorb it occasionally."""
    if fan_zh not in FAN_NAMES:
        raise ValueError(f"unknown fan {fan_zh!r}")
    for _ in range(200):
        hand = _targeted(rng, fan_zh)
        if hand is not None:
            return replace(hand, target=fan_zh)
    raise RuntimeError(f"could not build a hand for {fan_zh}")  # pragma: no cover


# --------------------------------------------------------------------------- samples


def sample_hands(
    seed: int, n: int, targeted_fraction: float = 0.3, unique: bool = True
) -> list[WinningHand]:
    """``n`` hands, deterministic for ``seed``: random hands of every shape, and (a share of
    ``targeted_fraction``) targeted hands going round-robin over the 82 entries."""
    rng = np.random.default_rng(seed)
    out: list[WinningHand] = []
    seen: set[tuple[Any, ...]] = set()
    next_fan = 0
    acc = 0.0
    while len(out) < n:
        acc += targeted_fraction
        if acc >= 1.0:
            acc -= 1.0
            hand = targeted_hand(rng, FAN_NAMES[next_fan % len(FAN_NAMES)])
            next_fan += 1
        else:
            hand = random_winning_hand(rng)
        if unique:
            k = hand.key()
            if k in seen:
                continue
            seen.add(k)
        out.append(hand)
    return out


def sample_non_winning(seed: int, n: int) -> list[WinningHand]:
    """``n`` hands (same structure as WinningHand, valid flags) that are *not* complete.

    Half are near misses (a complete hand with its winning tile replaced by one that does
    not complete it), half are random tiles around random melds."""
    rng = np.random.default_rng(seed)
    out: list[WinningHand] = []
    while len(out) < n:
        base = random_winning_hand(rng)
        counts = base.all_counts()
        counts[base.win_tile] -= 1
        if rng.random() < 0.5:
            hand = list(base.hand)
            melds = list(base.melds)
        else:
            melds = list(base.melds)
            counts = [0] * NUM_KINDS
            for m in melds:
                for t in m.tiles:
                    counts[t] += 1
            hand = []
            while len(hand) < 13 - 3 * len(melds):
                t = int(rng.integers(NUM_KINDS))
                if counts[t] < 4:
                    counts[t] += 1
                    hand.append(t)
            hand.sort()
        completing = set(waiting_tiles(hand, melds))
        cands = [t for t in range(NUM_KINDS) if counts[t] < 4 and t not in completing]
        if not cands:
            continue
        w = int(cands[int(rng.integers(len(cands)))])
        flags = _flags(rng, hand, melds, w)
        if flags is None:
            continue
        out.append(
            WinningHand(hand=tuple(hand), melds=tuple(melds), win_tile=w, shape="none", **flags)
        )
    return out


def sample_tenpai(
    seed: int, n: int, ready_fraction: float = 0.5
) -> list[tuple[tuple[int, ...], tuple[Meld, ...]]]:
    """``n`` (standing tiles, melds) pairs of 13 - 3 * melds tiles for waiting-tile
    benchmarks: a ``ready_fraction`` share are ready hands (a complete hand less a tile),
    the rest random tiles around the same kind of melds (mostly not ready)."""
    rng = np.random.default_rng(seed)
    out: list[tuple[tuple[int, ...], tuple[Meld, ...]]] = []
    while len(out) < n:
        base = random_winning_hand(rng)
        if rng.random() < ready_fraction:
            out.append((base.hand, base.melds))
            continue
        counts = [0] * NUM_KINDS
        for m in base.melds:
            for t in m.tiles:
                counts[t] += 1
        hand: list[int] = []
        while len(hand) < 13 - 3 * len(base.melds):
            t = int(rng.integers(NUM_KINDS))
            if counts[t] < 4:
                counts[t] += 1
                hand.append(t)
        out.append((tuple(sorted(hand)), base.melds))
    return out
