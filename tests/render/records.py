"""Seeded records of every kind the viewer must draw, found by playing seeded hands.

A fixed seed would break silently when the engine changes how it deals or what it allows, so
each builder searches a bounded range of seeds for a hand with the wanted property (a robbed
kong, a concealed kong, flowers ...) and fails loudly when there is none. The player
(:func:`choose`) wins whenever it can, takes every kong and pung, chows half the time and
otherwise discards its least connected tile: it reaches claims, kongs and wins in few hands.
A hand takes a few milliseconds, so a search costs well under a second. The viewer's
screenshot script (scripts/viewer_screenshots.py) finds its hand with :func:`search` too.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from mjenv import actions as A
from mjenv.engine import events as E
from mjenv.engine.game import Game
from mjenv.engine.match import Match
from mjenv.engine.record import match_record, record_of, rules_from_json
from mjenv.engine.rules import BOTZONE, MCR, RuleConfig
from mjenv.tiles import CODES

TAKE = (A.K_KONG, A.K_PUNG, A.K_ADDED_KONG, A.K_CONCEALED_KONG)


def _connection(hand: list[int], t: int) -> int:
    """How much tile ``t`` belongs with the others (copies, and neighbours in its suit)."""
    score = 4 * (hand[t] - 1)
    if t < 27:
        for d in (-2, -1, 1, 2):
            u = t + d
            if 0 <= u < 27 and u // 9 == t // 9:
                score += hand[u] * (3 - abs(d))
    return score


def choose(game: Game, seat: int, rng: random.Random) -> int:
    """The heuristic's action for ``seat``. Under ``false_win="penalize"`` Win is legal even
    when false, so the player never declares it."""
    legal = game.legal_actions(seat)
    if A.WIN in legal and game.rules.false_win == "mask":
        return A.WIN
    for a in legal:
        if A.decode(a)[0] in TAKE:
            return a
    chows = [a for a in legal if A.decode(a)[0] == A.K_CHOW]
    if chows and rng.random() < 0.5:
        return rng.choice(chows)
    discards = [a for a in legal if A.decode(a)[0] == A.K_DISCARD]
    if not discards:
        return legal[0]
    hand = game.hands[seat]
    return min(discards, key=lambda a: (_connection(hand, a - A.DISCARD_BASE), rng.random()))


def play(game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        game.step(seat, choose(game, seat, rng))
    return game


def _kinds(game: Game) -> set[type[E.Event]]:
    return {type(e) for e in game.events}


def search(make: Callable[[int], Game], want: Callable[[Game], bool], what: str,
           seeds: range = range(600)) -> Game:
    for seed in seeds:
        game = play(make(seed), seed)
        if want(game):
            return game
    raise AssertionError(f"no seed in {seeds} gives {what}: has the engine changed?")


def _mcr(seed: int, rules: RuleConfig = MCR) -> Game:
    return Game(rules, seed=seed, dealer=seed % 4, prevalent_wind=(seed // 4) % 4)


def mcr_hand() -> dict[str, Any]:
    """A won mcr hand with a chow, a pung and a kong, and flowers."""
    def want(g: Game) -> bool:
        k = _kinds(g)
        return (g.result is not None and g.result.winner is not None and E.Chow in k
                and E.Pung in k and bool(k & {E.Kong, E.AddedKong}) and E.Flower in k)
    return record_of(search(_mcr, want, "a won hand with a chow, a pung and a kong"))


def concealed_kong_hand() -> dict[str, Any]:
    """A hand with a concealed kong (hidden from the other seats until the end)."""
    return record_of(search(_mcr, lambda g: E.ConcealedKong in _kinds(g),
                            "a concealed kong"))


def robbed_kong_hand() -> dict[str, Any]:
    def want(g: Game) -> bool:
        return g.result is not None and g.result.robbed
    return record_of(search(_mcr, want, "a robbed kong"))


def botzone_flowers_hand() -> dict[str, Any]:
    rules = dataclasses.replace(BOTZONE, flowers=True)

    def want(g: Game) -> bool:
        return g.result is not None and g.result.winner is not None and E.Flower in _kinds(g)
    return record_of(search(lambda s: Game(rules, seed=s, prevalent_wind=s % 4), want,
                            "a won botzone hand with flowers"))


def penalised_hand() -> dict[str, Any]:
    """A false win under ``false_win="penalize"``: after 20 actions the first seat whose Win
    would be false declares it."""
    rules = dataclasses.replace(MCR, false_win="penalize")
    for seed in range(50):
        game = _mcr(seed, rules)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act()[0]
            if len(game.actions) >= 20:
                trial = game.clone()
                trial.step(seat, A.WIN)
                if trial.result is not None and trial.result.penalized == seat:
                    game.step(seat, A.WIN)
                    break
            game.step(seat, choose(game, seat, rng))
        if game.result is not None and game.result.penalized is not None:
            return record_of(game)
    raise AssertionError("no penalised hand in 50 seeds: has the engine changed?")


def mcr_match(seed: int = 2) -> dict[str, Any]:
    match = Match(MCR, seed=seed)
    while not match.is_over:
        play(match.game, seed * 100 + match.hand_index)
        match.next_hand()
    return match_record(match)


class SoftmaxAgent:
    """A small policy without torch: a fixed random linear map from the observation to 235
    logits, masked and softmaxed, and a value; it plays the likeliest legal action. It has
    ``explain``, the method :func:`mjenv.cli.view.play_annotated` asks for."""

    def __init__(self, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w = rng.normal(0.0, 0.05, size=(86 * 34, A.NUM_ACTIONS)).astype(np.float32)

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat

    def explain(self, observation: np.ndarray, action_mask: np.ndarray,
                ) -> tuple[np.ndarray, float]:
        logits = observation.reshape(-1).astype(np.float32) @ self.w
        logits = np.where(action_mask != 0, logits, -np.inf)
        p = np.exp(logits - logits.max())
        return p / p.sum(), float(np.tanh(observation.sum() / 100.0))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.argmax(self.explain(observation, action_mask)[0]))


def fresh(record: dict[str, Any]) -> Game:
    return Game(rules_from_json(record["rules"]), seed=record["seed"], wall=record["wall"],
                dealer=record["dealer"], prevalent_wind=record["prevalent_wind"])


def engine_states(record: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The engine's state after the deal and after every action, by frame (the index of the
    last event so far)."""
    g = fresh(record)

    def snap() -> dict[str, Any]:
        return {
            "hands": [sorted(CODES[t] for t in g.hand_tiles(s)) for s in range(4)],
            "melds": [sorted((m.kind, tuple(CODES[t] for t in m.tiles)) for m in g.melds[s])
                      for s in range(4)],
            "pools": [[CODES[t] for t in g.discards[s]] for s in range(4)],
            "flowers": [[CODES[t] for t in g.flowers[s]] for s in range(4)],
            "left": g.wall.remaining,
        }

    out = {len(g.events) - 1: snap()}
    for seat, a in record["actions"]:
        if a == "penalize":
            g.penalize(seat)
        else:
            g.step(seat, a)
        out[len(g.events) - 1] = snap()
    return out


def annotated(record: dict[str, Any], seat: int) -> dict[str, Any]:
    """The record with a synthetic annotation at each of ``seat``'s decisions: the action
    taken at 0.7 and Pass at 0.3."""
    rec = copy.deepcopy(record)
    rec["annotations"] = [
        {"step": i, "seat": s, "top": [[A.action_to_string(a), 0.7], ["Pass", 0.3]],
         "value": round(0.01 * i, 4)}
        for i, (s, a) in enumerate(rec["actions"]) if s == seat and a != "penalize"]
    return rec
