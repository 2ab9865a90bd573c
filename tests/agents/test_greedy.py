"""``GreedyShantenAgent``: legal, takes every win, discards by shanten then unseen useful
tiles, claims only when the shanten drops; scripted hands and random games (both profiles)."""

from __future__ import annotations

import numpy as np
import pytest

import mjenv
from mjenv.agent import make_agent
from mjenv.encoders.default import (
    D_CLAIM,
    D_DRAW,
    DECISION_TILE,
    DRAWN,
    HAND,
    PREVALENT_WIND,
    S_KIND,
    S_OFFERER,
    S_TILES_LEFT,
    SCALARS,
    SEAT_WIND,
    UNSEEN,
)
from mjenv.shanten import analyze_counts, shanten_counts
from mjenv.tiles import EAST, parse_tiles, tile_id, to_counts
from mjenv_agents.greedy import GreedyShantenAgent, discard_preference
from mjenv_agents.observation import (
    CHOW_BASE,
    CONCEALED_KONG_BASE,
    DISCARD_BASE,
    KONG_BASE,
    NUM_ACTIONS,
    PASS,
    PUNG_BASE,
    WIN,
    chow_action,
    read_observation,
)


def _obs(hand: str, *, drawn: str | None = None, claim: str | None = None,
         offerer: int = 3, unseen: list[int] | None = None) -> np.ndarray:
    """A hand-made mjenv-v1 observation: own standing tiles (the drawn one included), East
    seat and wind, nobody else has shown anything."""
    counts = to_counts(parse_tiles(hand))
    o = np.zeros((86, 34), dtype=np.float32)
    for t, c in enumerate(counts):
        for k in range(c):
            o[HAND + k, t] = 1
    o[SEAT_WIND, EAST] = o[PREVALENT_WIND, EAST] = 1
    seen = [4 - c for c in counts] if unseen is None else unseen
    o[UNSEEN] = np.array(seen, dtype=np.float32) / 4
    o[SCALARS, S_TILES_LEFT] = 60 / 144
    if drawn is not None:
        t = tile_id(drawn)
        o[DRAWN, t] = o[DECISION_TILE, t] = 1
        o[SCALARS, S_KIND + D_DRAW] = 1
    if claim is not None:
        o[DECISION_TILE, tile_id(claim)] = 1
        o[SCALARS, S_KIND + D_CLAIM] = 1
        o[SCALARS, S_OFFERER + offerer - 1] = 1
    return o


def _mask(*actions: int) -> np.ndarray:
    m = np.zeros(NUM_ACTIONS, dtype=np.int8)
    m[list(actions)] = 1
    return m


def _discards_of(hand: str) -> np.ndarray:
    return _mask(*(DISCARD_BASE + t for t in set(parse_tiles(hand))))


def test_spec_and_options() -> None:
    agent = make_agent("greedy claim_margin=2 kongs=False")
    assert isinstance(agent, GreedyShantenAgent)
    assert agent.claim_margin == 2 and not agent.kongs
    with pytest.raises(ValueError):
        GreedyShantenAgent(claim_margin=0)


def test_discards_the_tile_that_leaves_the_hand_ready() -> None:
    hand = "123m456m789m11p45s7z"
    a = GreedyShantenAgent().act(_obs(hand, drawn="7z"), _discards_of(hand))
    assert a == DISCARD_BASE + tile_id("7z")


def test_ties_go_to_more_unseen_useful_tiles_then_preference() -> None:
    hand = "123m456m789m55p457s"  # 4s leaves 57s (waits 6s), 7s leaves 45s (waits 3s, 6s)
    obs, mask = _obs(hand, drawn="7s"), _discards_of(hand)
    assert GreedyShantenAgent().act(obs, mask) == DISCARD_BASE + tile_id("7s")
    # without the useful-tile count, the preference order then tile id decide: 4s
    assert GreedyShantenAgent(useful_ties=False).act(obs, mask) == DISCARD_BASE + tile_id("4s")
    # every 3s seen: 45s waits only on 6s, as 57s does -> tie -> preference -> 4s
    unseen = [4 - c for c in to_counts(parse_tiles(hand))]
    unseen[tile_id("3s")] = 0
    assert GreedyShantenAgent().act(_obs(hand, drawn="7s", unseen=unseen), mask) == \
        DISCARD_BASE + tile_id("4s")


def test_preference_order() -> None:
    east, north, red, w1, w2, w5 = (tile_id(c) for c in ("1z", "4z", "7z", "1m", "2m", "5m"))
    # seat and prevalent wind East: North scores nothing and goes first, East is kept longer
    ranks = [discard_preference(t, 0, 0) for t in (north, east, red, w1, w2, w5)]
    assert ranks == sorted(ranks) and ranks[0] < ranks[1]


def test_takes_every_win() -> None:
    hand = "123m456m789m11p456s"
    discards = _discards_of(hand).nonzero()[0]
    assert GreedyShantenAgent().act(_obs(hand, drawn="6s"), _mask(WIN, *discards)) == WIN
    # a claim window: Win on the discard over a pung
    hand13 = "123m456m789m11p45s"
    assert GreedyShantenAgent().act(_obs(hand13, claim="6s"), _mask(PASS, WIN)) == WIN
    # a Win bit on an incomplete hand (false_win="penalize" sets it always) is not taken
    hand = "123m456m789m11p457s"
    discards = _discards_of(hand).nonzero()[0]
    a = GreedyShantenAgent().act(_obs(hand, drawn="7s"), _mask(WIN, *discards))
    assert a == DISCARD_BASE + tile_id("7s")


def test_pungs_when_the_shanten_drops() -> None:
    hand = "123m456m11p55p99s3z"  # shanten 1; pung 5p then discard 3z: ready
    obs = _obs(hand, claim="5p", offerer=2)
    p = PUNG_BASE + tile_id("5p")
    assert GreedyShantenAgent().act(obs, _mask(PASS, p)) == p
    assert GreedyShantenAgent(claims=False).act(obs, _mask(PASS, p)) == PASS
    assert GreedyShantenAgent(claim_margin=2).act(obs, _mask(PASS, p)) == PASS


def test_passes_when_a_claim_does_not_lower_the_shanten() -> None:
    hand = "123m456m789m55p34s"  # ready; after pung 5p still ready (4s or 3s single wait)
    p = PUNG_BASE + tile_id("5p")
    assert GreedyShantenAgent().act(_obs(hand, claim="5p"), _mask(PASS, p)) == PASS


def test_chows_when_the_shanten_drops() -> None:
    hand = "123m456m789m12p59s"  # shanten 1; chow 123p then discard 9s: ready
    c = chow_action(tile_id("2p"), tile_id("3p"))
    assert GreedyShantenAgent().act(_obs(hand, claim="3p"), _mask(PASS, c)) == c


def _shanten_after_claim(hand: list[int], n: int, a: int, x: int) -> int:
    from mjenv_agents.observation import decode_chow

    counts = hand[:]
    if a < PUNG_BASE:
        middle, claimed = decode_chow(a)
        for u in (middle - 1, middle, middle + 1):
            if u != claimed:
                counts[u] -= 1
    else:
        counts[x] -= 2 if a < KONG_BASE else 3
    return shanten_counts(counts, n + 1)


def _check_decision(env, agent_name: str, obs: np.ndarray, mask: np.ndarray, a: int,
                    agent: GreedyShantenAgent, stats: dict[str, int]) -> None:
    assert mask[a], f"illegal action {a}"
    if mask[WIN] and env.rules.false_win == "mask":
        assert a == WIN
        stats["wins"] += 1
        return
    view = env.view(agent_name)
    hand, n = list(view.hand), len(view.melds[view.seat])
    f = read_observation(obs, mask)
    assert f.hand == hand
    if DISCARD_BASE <= a < CHOW_BASE:
        legal = [t for t in range(34) if mask[DISCARD_BASE + t]]
        assert a - DISCARD_BASE == _reference_best_discard(
            hand, n, f.unseen, f.seat_wind, f.prevalent_wind, legal)[0]
        stats["discards"] += 1
    elif f.decision == "claim":
        now = shanten_counts(hand, n)
        claims = [b for b in np.flatnonzero(mask) if CHOW_BASE <= b < CONCEALED_KONG_BASE]
        if a == PASS:
            assert all(_shanten_after_claim(hand, n, b, f.decision_tile) >= now
                       for b in claims)
            stats["passes"] += bool(claims)
        else:
            assert _shanten_after_claim(hand, n, a, f.decision_tile) < now
            stats["claims"] += 1


@pytest.mark.parametrize("rules", ["mcr", "botzone"])
def test_legal_wins_and_shanten_in_random_games(rules: str) -> None:
    """Greedy in seats 0 and 2, random in 1 and 3; every greedy decision is checked."""
    from mjenv_agents.random_agent import RandomAgent

    stats = dict.fromkeys(("wins", "discards", "claims", "passes"), 0)
    for seed in range(20):
        env = mjenv.raw_env(rules=rules)
        env.reset(seed=seed)
        greedy = GreedyShantenAgent()
        players = {a: greedy if i % 2 == 0 else RandomAgent(seed=seed)
                   for i, a in enumerate(env.possible_agents)}
        for name in env.agent_iter():
            o, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            obs, mask = o["observation"], o["action_mask"]
            a = players[name].act(obs, mask)
            if players[name] is greedy:
                _check_decision(env, name, obs, mask, a, greedy, stats)
            env.step(a)
    assert stats["discards"] > 200 and stats["claims"] > 0 and stats["passes"] > 0


@pytest.mark.parametrize(("rules", "false_win"), [("mcr", "mask"), ("botzone", "mask"),
                                                  ("mcr", "penalize")])
def test_four_greedy_agents_play_legal_hands(rules: str, false_win: str) -> None:
    wins = 0
    for seed in range(15):
        env = mjenv.raw_env(rules=rules, false_win=false_win)
        env.reset(seed=seed)
        agent = GreedyShantenAgent(check_points=false_win == "penalize")
        for _name in env.agent_iter():
            o, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = agent.act(o["observation"], o["action_mask"])
            assert o["action_mask"][a]
            env.step(a)
        result = env.game.result
        assert result is not None and result.penalized is None  # never a false win
        wins += result.winner is not None
    assert wins > 0


def _reference_best_discard(hand: list[int], n: int, unseen: list[int], sw: int, pw: int,
                            held: list[int] | None = None) -> tuple[int, int]:
    """The greedy discard computed the plain way: a shanten per discard, an analysis per tie."""
    if held is None:
        held = [t for t in range(34) if hand[t]]
    after = {}
    for t in held:
        c = hand[:]
        c[t] -= 1
        after[t] = shanten_counts(c, n)
    best = min(after.values())
    ties = [t for t in held if after[t] == best]
    def useful_unseen(t: int) -> int:
        c = hand[:]
        c[t] -= 1
        return sum(unseen[k] for k in analyze_counts(c, n).useful)
    if len(ties) > 1:
        top = max(useful_unseen(t) for t in ties)
        ties = [t for t in ties if useful_unseen(t) == top]
    return min(ties, key=lambda t: (discard_preference(t, sw, pw), t)), best


def _random_hand(rng: np.random.Generator, n_melds: int) -> list[int]:
    """A 14-form hand of 14 - 3 * n_melds tiles: random, or drawn near a special shape."""
    size = 14 - 3 * n_melds
    kind = rng.integers(4)
    if kind == 0:  # pairs (near seven pairs)
        pool = [int(t) for t in rng.choice(34, 8, replace=False) for _ in range(2)]
    elif kind == 1:  # terminals and honours (near thirteen orphans)
        pool = [t for t in (0, 8, 9, 17, 18, 26, *range(27, 34)) for _ in range(2)]
    elif kind == 2:  # a knitted pattern and honours (knitted straight, honours and knitted)
        suits = rng.permutation(3)
        pool = [9 * int(suits[r % 3]) + r for r in range(9)] + list(range(27, 34)) * 2
    else:
        pool = [t for t in range(34) for _ in range(4)]
    counts = [0] * 34
    for t in rng.permutation(pool):
        if sum(counts) == size:
            break
        if counts[int(t)] < 4:
            counts[int(t)] += 1
    while sum(counts) < size:  # top up from anywhere
        t = int(rng.integers(34))
        if counts[t] < 4:
            counts[t] += 1
    return counts


def test_best_discard_matches_a_shanten_and_an_analysis_per_discard() -> None:
    """best_discard shares one analysis across the discards (discard_outcomes); on random and
    special-shape hands of every meld count it picks what the plain computation picks."""
    rng = np.random.default_rng(5)
    agent = GreedyShantenAgent()
    f = read_observation(_obs("123m456p789s1122z", drawn="3z"))
    for _ in range(1500):
        n = int(rng.integers(5)) if rng.random() < 0.4 else 0
        hand = _random_hand(rng, n)
        f.unseen = [max(0, 4 - hand[t] - int(rng.integers(3))) for t in range(34)]
        f.seat_wind, f.prevalent_wind = int(rng.integers(4)), int(rng.integers(4))
        held = [t for t in range(34) if hand[t]]
        assert agent.best_discard(hand, n, held, f) == _reference_best_discard(
            hand, n, f.unseen, f.seat_wind, f.prevalent_wind), (hand, n)
    # a candidate list without the best kinds: the ties are analysed one by one
    hand = to_counts(parse_tiles("123m456p789s11223z"))
    f.unseen = [4] * 34
    some = [tile_id("1m"), tile_id("2m"), tile_id("6p"), tile_id("9s")]
    got = agent.best_discard(hand, 0, some, f)
    assert got == _reference_best_discard(hand, 0, f.unseen, f.seat_wind, f.prevalent_wind,
                                          some)
    assert got[1] > agent.best_discard(hand, 0, [t for t in range(34) if hand[t]], f)[1]
