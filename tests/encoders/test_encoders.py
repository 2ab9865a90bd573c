"""The observation encoders: shapes, bounds, channel docs, semantics, rotation and no-leak."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest

from mjenv import actions as A
from mjenv.encoders import (
    ENCODERS,
    ORACLE_ENCODERS,
    Encoder,
    channel_indices,
    describe_channels,
    make_encoder,
    make_oracle,
)
from mjenv.encoders import default as D
from mjenv.engine import BOTZONE, MCR, Game, RuleConfig, SeatView
from mjenv.engine.events import ConcealedKong, Deal, Draw, Event
from mjenv.engine.seat_view import fold
from mjenv.tiles import EAST, FLOWER_BASE, NUM_KINDS


def _mask(legal: list[int]) -> np.ndarray:
    m = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    m[legal] = 1
    return m


def _walk(rules: RuleConfig, seed: int) -> Iterator[tuple[Game, int, SeatView, np.ndarray]]:
    """Random legal play; yields (game, seat, view, mask) at every decision of the acting seat,
    the view caught up incrementally with ``extend``."""
    dealer = seed % 4 if rules.fixed_dealer is None else rules.fixed_dealer
    g = Game(rules=rules, seed=seed, dealer=dealer, prevalent_wind=seed % 4)
    rng = random.Random(seed)
    views = [SeatView(s, dealer=g.dealer, prevalent_wind=g.prevalent_wind,
                      num_tiles=rules.num_tiles) for s in range(4)]
    while not g.is_over:
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        v = views[seat]
        v.extend(g.events[v.num_events:])
        yield g, seat, v, _mask(legal)
        g.step(seat, rng.choice(legal))


RULES = [MCR, BOTZONE, RuleConfig(false_win="penalize")]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.profile}-{r.false_win}")
def test_shapes_dtypes_and_bounds_in_random_games(rules: RuleConfig) -> None:
    encs = [make_encoder(n, rules) for n in ENCODERS]
    oracle = make_oracle("oracle-v1", rules)
    for seed in range(12):
        for g, seat, v, mask in _walk(rules, seed):
            outs: list[tuple[Encoder, np.ndarray]] = [(e, e.encode(v, mask)) for e in encs]
            outs.append((oracle, oracle.encode(g, seat)))
            for e, o in outs:
                assert o.shape == e.shape and o.dtype == e.dtype
                assert o.min() >= e.low and o.max() <= e.high, (e.name, seed)
        for s in range(4):  # the final observations, concealed kongs revealed
            v = SeatView.of_game(g, s)
            assert v.over
            for e in encs:
                o = e.encode(v, _mask([]))
                assert o.min() >= e.low and o.max() <= e.high


def test_encode_returns_a_new_array_each_call() -> None:
    g, seat, v, mask = next(_walk(MCR, 1))
    for name in ENCODERS:
        e = make_encoder(name)
        a, b = e.encode(v, mask), e.encode(v, mask)
        assert a is not b and not np.shares_memory(a, b) and np.array_equal(a, b)
        a[...] = 0
        assert not np.array_equal(a, e.encode(v, mask))
    o = make_oracle()
    assert not np.shares_memory(o.encode(g, seat), o.encode(g, seat))


@pytest.mark.parametrize("rules", RULES[:2], ids=lambda r: r.profile)
def test_encode_into_writes_what_encode_returns(rules: RuleConfig) -> None:
    """Into a batch's row (contiguous) and into a strided view alike, at every decision of
    random games, with the others' rows untouched; a fresh encoder gives the same too."""
    names = list(ENCODERS)
    encs = [make_encoder(n, rules) for n in names]
    for seed in range(6):
        for _g, _seat, v, mask in _walk(rules, seed):
            for name, e in zip(names, encs, strict=True):
                want = make_encoder(name, rules).encode(v, mask)
                rows = np.full((3, *e.shape), 7.0, dtype=e.dtype)
                e.encode_into(v, mask, rows[1])
                assert np.array_equal(rows[1], want), (name, seed)
                assert (rows[0] == 7).all() and (rows[2] == 7).all()
                wide = np.full((*e.shape[:-1], 2 * e.shape[-1]), 7.0, dtype=e.dtype)
                e.encode_into(v, mask, wide[..., ::2])
                assert np.array_equal(wide[..., ::2], want) and (wide[..., 1::2] == 7).all()


@pytest.mark.parametrize("rules", RULES[:2], ids=lambda r: r.profile)
def test_counts_times_scales_and_over_divisors_make_the_observation(rules: RuleConfig) -> None:
    """An encoder with count channels (what a batch stages and turns into float32 in one or
    two numpy calls): its counts times its scales, then over its divisors, are exactly
    ``encode``'s values, bit for bit, at every decision of random games."""
    staged = [n for n in ENCODERS if ENCODERS[n].count_channels]
    assert {"mjenv-v1", "mjenv-v1+shanten"} <= set(staged)
    encs = [make_encoder(n, rules) for n in staged]
    for seed in range(4):
        for _g, _seat, v, mask in _walk(rules, seed):
            for name, e in zip(staged, encs, strict=True):
                k = e.count_channels
                assert k == e.shape[0]
                row = np.full(e.shape, 7.0, dtype=e.dtype)
                counts = np.frombuffer(e.counts(v, mask), dtype=np.uint8).reshape(k, -1)
                scale, divisor = e.count_scale(), e.count_divisor()
                s = len(scale)
                np.multiply(counts[:s], scale, out=row[:s])
                if divisor is not None:
                    np.divide(counts[s:], divisor, out=row[s:])
                else:
                    assert s == k
                assert np.array_equal(row, make_encoder(name, rules).encode(v, mask)), name
    plain = make_encoder("ijcai-v1", BOTZONE)
    assert plain.count_channels == 0 and plain.count_divisor() is None
    with pytest.raises(NotImplementedError, match="writes no counts"):
        plain.counts(v, mask)


def test_the_planes_divisor_gives_the_values_the_planes_always_had() -> None:
    """Planes 3 and 9 are unseen copies / 40, capped at 1: the float32 quotient of the capped
    count by 40 is the double quotient rounded to float32 for every count (the product with
    float32(1/40) is not, for 7 of them: why the planes are divided)."""
    from mjenv.encoders.shanten_planes import PLANE_DIVISOR, UKEIRE_CAP

    counts = np.arange(UKEIRE_CAP + 1, dtype=np.uint8)
    quotients = np.empty(len(counts), dtype=np.float32)
    np.divide(counts, PLANE_DIVISOR[3, :1], out=quotients)
    assert [float(q) for q in quotients] == [
        float(np.float32(min(1.0, k / 40.0))) for k in range(UKEIRE_CAP + 1)]
    assert not np.array_equal(counts * np.float32(1 / UKEIRE_CAP), quotients)
    assert not PLANE_DIVISOR.flags.writeable


def test_the_default_encoders_share_one_read_only_scale_array() -> None:
    a, b = D.DefaultEncoder(MCR), D.DefaultEncoder(MCR)
    assert a._scale is b._scale and not a._scale.flags.writeable


@pytest.mark.parametrize("name", [*ENCODERS, *ORACLE_ENCODERS])
def test_channel_docs_cover_every_index_once(name: str) -> None:
    cls = ENCODERS.get(name) or ORACLE_ENCODERS[name]
    seen = [i for spec, _, _ in cls.channels() for i in channel_indices(spec)]
    assert seen == list(range(cls.shape[0]))
    names = [n for _, n, _ in cls.channels()]
    assert len(names) == len(set(names))
    table = describe_channels(name)
    assert table.count("\n| ") == len(cls.channels()) + 1  # the header and one row each
    assert f"`{name}`" in table and all(f"| {n} |" in table for n in names)


def test_unknown_names_are_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="mjenv-v1"):
        make_encoder("nope")
    with pytest.raises(ValueError, match="make_oracle"):
        make_encoder("oracle-v1")
    with pytest.raises(ValueError, match="oracle-v1"):
        make_oracle("nope")
    with pytest.raises(ValueError, match="ijcai-v1"):
        describe_channels("nope")


def _hand_from_planes(planes: np.ndarray) -> list[int]:
    return [int(x) for x in planes.sum(axis=0)]


def test_default_semantics_hand_winds_drawn_and_discards_in_order() -> None:
    e = make_encoder("mjenv-v1")
    for seed in range(6):
        for _g, seat, v, mask in _walk(MCR, seed):
            o = e.encode(v, mask)
            assert _hand_from_planes(o[D.HAND:D.HAND + 4])[:NUM_KINDS] == v.hand
            assert o[D.SEAT_WIND, EAST + v.seat_wind] == 1 and o[D.SEAT_WIND].sum() == 1
            assert o[D.PREVALENT_WIND, EAST + v.prevalent_wind] == 1
            assert np.allclose(o[D.UNSEEN] * 4, v.unseen)
            if v.drawn >= 0:
                assert o[D.DRAWN, v.drawn] == 1 and o[D.DRAWN].sum() == 1
                assert o[D.SCALARS, D.S_KIND + D.D_DRAW] == 1
            else:
                assert o[D.DRAWN].sum() == 0
            sc = o[D.SCALARS]
            assert sc[D.S_DEALER + (v.dealer - seat) % 4] == 1
            assert sc[D.S_TILES_LEFT] == pytest.approx(v.tiles_left / 144)
            assert sc[D.S_WIN_LEGAL] == mask[A.WIN]
            assert sc[D.S_KIND:D.S_KIND + 4].sum() == 1
            for r in range(4):
                s = (seat + r) % 4
                river = v.river[s]
                b = D.RIVER + r * D.RIVER_PLANES
                last = [int(np.argmax(o[b + k])) for k in range(D.LAST_K) if o[b + k].any()]
                assert last == river[::-1][:D.LAST_K]
                assert np.allclose(o[b + D.R_COUNT] * 4, np.bincount(river, minlength=34))
                claimed = [t for t, by in zip(river, v.claimed_by[s], strict=True) if by >= 0]
                assert np.allclose(o[b + D.R_CLAIMED] * 4, np.bincount(claimed, minlength=34))
                assert sc[D.S_FLOWERS + r] == pytest.approx(len(v.flowers[s]) / 8)


def test_default_decision_kind_for_claims_and_after_claims() -> None:
    e = make_encoder("mjenv-v1")
    kinds = set()
    for seed in range(30):
        for _g, seat, v, mask in _walk(MCR, seed):
            o = e.encode(v, mask)
            sc = o[D.SCALARS]
            k = int(np.argmax(sc[D.S_KIND:D.S_KIND + 4]))
            kinds.add(k)
            if k in (D.D_CLAIM, D.D_ROB):
                assert o[D.DECISION_TILE, v.claim_tile] == 1
                assert sc[D.S_OFFERER + (v.claim_from - seat) % 4 - 1] == 1
                assert mask[A.PASS] == 1
            elif k == D.D_AFTER_CLAIM:
                assert o[D.DECISION_TILE].sum() == 0 and not mask[A.PASS]
    assert {D.D_DRAW, D.D_AFTER_CLAIM, D.D_CLAIM} <= kinds
    # a seat that is not asked gets no decision channels
    g, seat, v, mask = next(_walk(MCR, 3))
    o = e.encode(v, np.zeros(A.NUM_ACTIONS, dtype=np.int8))
    assert o[D.DECISION_TILE].sum() == 0 and o[D.SCALARS, D.S_KIND:D.S_OFFERER + 3].sum() == 0


def _public_blocks(o: np.ndarray, r: int) -> np.ndarray:
    """Relative seat r's public meld planes (concealed kong plane excluded) and river planes."""
    mb = D.MELDS + r * D.MELD_PLANES
    melds = np.delete(o[mb:mb + D.MELD_PLANES], D.M_CONCEALED_KONG, axis=0)
    rb = D.RIVER + r * D.RIVER_PLANES
    sc = o[D.SCALARS]
    scal = np.array([sc[D.S_FLOWERS + r], sc[D.S_RIVER_LEN + r], sc[D.S_MELD_COUNT + r]])
    return np.concatenate([melds.ravel(), o[rb:rb + D.RIVER_PLANES].ravel(), scal])


def test_relative_rotation_is_consistent_between_seats() -> None:
    e = make_encoder("mjenv-v1")
    melded = 0
    for seed in range(15):
        g = Game(seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        while not g.is_over:
            views = [SeatView.of_game(g, s) for s in range(4)]
            obs = [e.encode(views[s], _mask([])) for s in range(4)]
            for a in range(4):
                for b in range(4):
                    for s in range(4):
                        assert np.array_equal(_public_blocks(obs[a], (s - a) % 4),
                                              _public_blocks(obs[b], (s - b) % 4))
                # the dealer scalar rotates too
                assert obs[a][D.SCALARS, D.S_DEALER + (g.dealer - a) % 4] == 1
            melded += sum(len(m) for m in g.melds)
            seat = g.to_act()[0]
            g.step(seat, rng.choice(g.legal_actions(seat)))
    assert melded > 0


def _scramble(events: list[Event], seat: int, rng: random.Random) -> list[Event]:
    """Replace every hidden tile ``seat`` cannot see with another (valid) tile, before the end."""
    out: list[Event] = []
    for ev in events:
        if ev.seat != seat and isinstance(ev, Deal):
            ev = replace(ev, tiles=tuple(rng.randrange(FLOWER_BASE) for _ in ev.tiles))
        elif ev.seat != seat and isinstance(ev, (Draw, ConcealedKong)):
            ev = replace(ev, tile=rng.randrange(NUM_KINDS))
        out.append(ev)
    return out


@pytest.mark.parametrize("name", list(ENCODERS))
def test_no_leak_hidden_tiles_do_not_change_the_encoding(name: str) -> None:
    e = make_encoder(name)
    checked = 0
    for seed in range(10):
        rng = random.Random(1000 + seed)
        for g, seat, _v, mask in _walk(MCR, seed):
            if g.is_over:
                continue
            events = list(g.events)
            kw = {"dealer": g.dealer, "prevalent_wind": g.prevalent_wind}
            real = e.encode(fold(events, seat, **kw), mask)
            fake = e.encode(fold(_scramble(events, seat, rng), seat, **kw), mask)
            assert real.tobytes() == fake.tobytes()
            checked += 1
    assert checked > 500


def test_the_default_sees_its_own_concealed_kong_and_counts_the_others() -> None:
    e = make_encoder("mjenv-v1")
    found = 0
    for seed in range(200):
        for g, seat, v, mask in _walk(MCR, seed):
            kongs = [(s, m.first) for s in range(4) for m in g.melds[s]
                     if m.kind == "concealed_kong"]
            if not kongs:
                continue
            o = e.encode(v, mask)
            for s, t in kongs:
                r = (s - seat) % 4
                plane = o[D.MELDS + r * D.MELD_PLANES + D.M_CONCEALED_KONG]
                if s == seat:
                    assert plane[t] == 1
                else:
                    assert plane.sum() == 0 and o[D.SCALARS, D.S_HIDDEN_KONGS + r] > 0
            found += 1
        if found > 20:
            break
    assert found > 0


def test_ijcai_layout() -> None:
    e = make_encoder("ijcai-v1")
    for _g, seat, v, mask in _walk(BOTZONE, 4):
        o = e.encode(v, mask)
        assert o.shape == (6, 4, 9)
        flat = o.reshape(6, 36)
        assert flat[0, 27 + seat] == 1 and flat[0].sum() == 1  # botzone: seat 0 deals
        assert flat[1, 27 + v.prevalent_wind] == 1 and flat[1].sum() == 1
        assert _hand_from_planes(flat[2:6])[:34] == v.hand and not flat[:, 34:].any()
        # the grid: row 3 holds F1-F4 then J1-J3
        assert np.array_equal(o[0, 3, :4], flat[0, 27:31])


def test_oracle_sees_every_hand_and_the_wall() -> None:
    for rules in (MCR, BOTZONE):
        o_enc = make_oracle("oracle-v1", rules)
        for g, seat, _v, _mask in _walk(rules, 7):
            o = o_enc.encode(g, seat)
            for r in range(4):
                s = (seat + r) % 4
                assert _hand_from_planes(o[4 * r:4 * r + 4]) == g.hands[s]
            rest = g.wall.remaining_tiles()
            want = np.bincount([t for t in rest if t < FLOWER_BASE], minlength=34)
            assert np.allclose(o[24] * 4, want)
            if rules.wall_layout == "shared" and rest and rest[0] < FLOWER_BASE:
                assert o[25, rest[0]] == 1
