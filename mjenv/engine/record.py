"""Game records: one hand (or a whole match) as versioned JSON that replays exactly.

>>> from mjenv.engine import Game
>>> g = Game(seed=3)
>>> while not g.is_over:
...     s = g.to_act()[0]
...     _ = g.step(s, g.legal_actions(s)[0])
>>> rec = record_of(g)
>>> replay(from_json(to_json(rec))).events == g.events
True

A hand record (``"format": "mjenv-hand"``, ``"version": 1``) is a JSON object with exactly
these fields:

==================  ============================================================================
``format``          ``"mjenv-hand"``
``version``         ``1`` (a reader rejects every other version)
``rules``           ``{"profile": NAME}`` plus each :class:`RuleConfig` field that differs from
                    the named profile, e.g. ``{"profile": "mcr", "false_win": "penalize"}``
``seed``            the wall's shuffle seed, or null; **informative only**: the wall is the truth
``wall``            the full wall as tile codes (``"W1"`` ... ``"H8"``), index 0 = the head
                    (per-seat walls: the judge's ``walltiles`` order)
``dealer``          the dealer's seat, 0..3
``prevalent_wind``  0..3 (E, S, W, N)
``actions``         ``[seat, action id]`` pairs (the 235-action layout of actions.py) in the
                    order they were applied; ``[seat, "penalize"]`` for a ``Game.penalize`` call
``events``          every event as an object: ``{"type": "Draw", "seat": 0, "tile": "W3",
                    "replacement": false}``: the class name, then its fields by name; tiles as
                    codes, tuples as lists, nothing hidden (a record is the referee's view)
``result``          null while the hand is not over, else ``{"winner", "from_seat",
                    "self_drawn", "robbed", "win_tile", "fan_total", "fans": [[name, count]],
                    "payments", "penalized"}`` (the fields of HandResult, tiles as codes)
``botzone``         optional: in a record converted from a Botzone judge log, the bots' replies
                    that the actions cannot express (mjenv.botzone.logs); replay ignores it
``annotations``     optional: what an agent thought at its decisions, for viewers
                    (``mjenv view``): ``[{"step": i, "seat": s, "top": [[action name, prob],
                    ...], "value": v}]``, ``step`` an index into ``actions`` and ``seat`` its
                    seat; replay checks the shape and ignores the content
==================  ============================================================================

:func:`replay` rebuilds the game from rules + wall + dealer + wind, re-applies the actions, and
checks that the events and the result it gets equal the recorded ones. Everything is validated
first; any problem raises ``ValueError`` saying what and where (``"action 17: ..."``,
``"events[40]: ..."``, ``"wall: ..."``).

Design: the :class:`Game` keeps an action log (``Game.actions``: a tuple appended per
successful ``step``, ``(seat, PENALIZE)`` per ``penalize``, copied by ``clone``), so any caller
(the env, the arena, a script) can record a hand after the fact without wrapping the game. The
events are stored too, though they follow from the actions: they make a record readable on its
own and let a replay prove that the engine still plays the hand the same way.

A match record (``"format": "mjenv-match"``) holds ``rules``, the match ``seed``, ``hands`` (one
hand record per finished hand, in order; hand ``h`` has dealer ``h % 4`` (or the profile's
``fixed_dealer``) and prevalent wind
``(h // 4) % 4``) and the cumulative ``scores``; :func:`replay_match` checks all of it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mjenv import actions as A
from mjenv.engine.events import HIDDEN, Event
from mjenv.engine.game import PENALIZE, Game
from mjenv.engine.match import Match
from mjenv.engine.result import HandResult
from mjenv.engine.rules import RuleConfig, profile
from mjenv.inputs import parse_json
from mjenv.tiles import CODES, tile_code

FORMAT = "mjenv-hand"
MATCH_FORMAT = "mjenv-match"
VERSION = 1
PENALIZE_NAME = "penalize"
FIELDS = ("format", "version", "rules", "seed", "wall", "dealer", "prevalent_wind", "actions",
          "events", "result")
MATCH_FIELDS = ("format", "version", "rules", "seed", "hands", "scores")
OPTIONAL_FIELDS = ("botzone", "annotations")
"""Hand-record fields that may be absent: ``botzone`` (written by mjenv.botzone.logs) keeps
what a Botzone judge log says that the actions cannot (a bot's exact reply where it differs from
the reply the actions imply: a claim that lost, a malformed answer, a verdict);
``annotations`` keeps what an agent reported at its decisions (:func:`check_annotations`), which
a viewer shows beside the table (mjenv.render.html)."""
ANNOTATION_KEYS = ("step", "seat", "top", "value")

_TILE_FIELDS = frozenset({"tile", "claimed", "win_tile"})
_CODE_TO_ID = {code: i for i, code in enumerate(CODES)}

Record = dict[str, Any]


# ================================================================ to JSON
def _tile_json(t: int | None) -> str | None:
    return None if t is None or t == HIDDEN else tile_code(t)


def _value_json(name: str, value: Any) -> object:
    if name in _TILE_FIELDS:
        return _tile_json(value)
    if name == "tiles":
        return [tile_code(t) for t in value]
    if name == "revealed":
        return [[tile_code(t) for t in seat] for seat in value]
    if name == "fans":
        return [[zh, n] for zh, n in value]
    if isinstance(value, tuple):
        return list(value)
    return value


def event_json(event: Event) -> dict[str, object]:
    """The JSON form of an event: ``{"type": class name, field: value, ...}``."""
    out: dict[str, object] = {"type": type(event).__name__}
    for f in dataclasses.fields(event):
        out[f.name] = _value_json(f.name, getattr(event, f.name))
    return out


def result_json(result: HandResult | None) -> dict[str, object] | None:
    if result is None:
        return None
    return {f.name: _value_json(f.name, getattr(result, f.name))
            for f in dataclasses.fields(result)}


def rules_json(rules: RuleConfig) -> dict[str, object]:
    """``{"profile": name}`` plus the fields that differ from the named profile."""
    base = profile(rules.profile)
    out: dict[str, object] = {"profile": rules.profile}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if f.name != "profile" and value != getattr(base, f.name):
            out[f.name] = value
    return out


def record_of(game: Game) -> Record:
    """The record of ``game`` so far (a finished hand has a result)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_json(game.rules),
        "seed": game.wall.seed,
        "wall": [tile_code(t) for t in game.wall.tiles],
        "dealer": game.dealer,
        "prevalent_wind": game.prevalent_wind,
        "actions": [[s, PENALIZE_NAME if a == PENALIZE else a] for s, a in game.actions],
        "events": [event_json(e) for e in game.events],
        "result": result_json(game.result),
    }


def match_record(match: Match) -> Record:
    """The record of ``match``'s finished hands and cumulative scores."""
    return {
        "format": MATCH_FORMAT,
        "version": VERSION,
        "rules": rules_json(match.rules),
        "seed": match.seed,
        "hands": [record_of(g) for g in match.games],
        "scores": list(match.scores),
    }


def to_json(record: Record) -> str:
    """JSON text, one line per action and per event (UTF-8: fan names stay Chinese)."""

    def dump(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    def lines(rec: Record, indent: str) -> list[str]:
        out = []
        for key, value in rec.items():
            if key in ("actions", "events", "hands") and isinstance(value, list) and value:
                if key == "hands":
                    items = ["{\n" + ",\n".join(lines(v, indent + "   ")) + "\n" + indent + "  }"
                             for v in value]
                else:
                    items = [dump(v) for v in value]
                body = (",\n" + indent + "  ").join(items)
                out.append(f"{indent} {dump(key)}: [\n{indent}  {body}\n{indent} ]")
            else:
                out.append(f"{indent} {dump(key)}: {dump(value)}")
        return out

    return "{\n" + ",\n".join(lines(record, "")) + "\n}\n"


def from_json(text: str) -> Record:
    """Parse JSON text (ValueError if it is not a JSON object); :func:`replay` validates it."""
    try:
        value = parse_json(text)  # untrusted: bounded nesting, never a RecursionError
    except ValueError as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ValueError(f"a record is a JSON object, got {type(value).__name__}")
    return value


def save(record: Record | Game | Match, path: str | Path) -> None:
    """Write a record (or the record of a game or match) to ``path`` as UTF-8 JSON."""
    if isinstance(record, Game):
        record = record_of(record)
    elif isinstance(record, Match):
        record = match_record(record)
    Path(path).write_text(to_json(record), encoding="utf-8")


def load_record(path: str | Path) -> Record:
    """Read a record from ``path`` (not yet validated: :func:`replay` does that)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {str(path)!r}: {exc}") from None
    return from_json(text)


def load(path: str | Path) -> Game:
    """Read, validate and replay the hand record at ``path``."""
    return replay(load_record(path))


# ================================================================ validation
def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_header(record: object, fmt: str, fields: Sequence[str],
                  optional: Sequence[str] = ()) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise ValueError(f"a record is a JSON object, got {type(record).__name__}")
    if record.get("format") != fmt:
        raise ValueError(f"format: expected {fmt!r}, got {record.get('format')!r}")
    version = record.get("version")
    if not _is_int(version) or version != VERSION:
        raise ValueError(f"version: this reader knows version {VERSION}, got {version!r}")
    unknown = sorted(set(record) - set(fields) - set(optional))
    if unknown:
        raise ValueError(f"unknown field(s) {unknown}; a {fmt} record has {list(fields)}")
    missing = [k for k in fields if k not in record]
    if missing:
        raise ValueError(f"missing field(s) {missing}")
    return record


def rules_from_json(value: object) -> RuleConfig:
    """The RuleConfig of a record's ``rules`` (ValueError names a bad key or value)."""
    if not isinstance(value, dict) or not isinstance(value.get("profile"), str):
        raise ValueError(f"rules: expected {{'profile': name, ...}}, got {value!r}")
    try:
        base = profile(value["profile"])
    except ValueError as exc:
        raise ValueError(f"rules: {exc}") from None
    names = {f.name for f in dataclasses.fields(base)}
    changes: dict[str, Any] = {}
    for key, v in value.items():
        if key == "profile":
            continue
        if key not in names:
            raise ValueError(f"rules: unknown option {key!r}; options: {sorted(names)}")
        default = getattr(base, key)
        if type(v) is not type(default):
            raise ValueError(f"rules: {key} must be a {type(default).__name__}, got {v!r}")
        changes[key] = v
    try:
        return dataclasses.replace(base, **changes)
    except ValueError as exc:
        raise ValueError(f"rules: {exc}") from None


def _wall_ids(value: object, rules: RuleConfig) -> list[int]:
    if not isinstance(value, list):
        raise ValueError(f"wall: expected a list of tile codes, got {type(value).__name__}")
    ids = []
    for i, code in enumerate(value):
        t = _CODE_TO_ID.get(code) if isinstance(code, str) else None
        if t is None:
            raise ValueError(f"wall[{i}]: not a tile code: {code!r} (codes: W1..W9 T1..T9 "
                             "B1..B9 F1..F4 J1..J3 H1..H8)")
        ids.append(t)
    if len(ids) != rules.num_tiles:
        raise ValueError(f"wall: a {rules.profile} wall has {rules.num_tiles} tiles, "
                         f"got {len(ids)}")
    return ids


def _actions(value: object) -> list[tuple[int, int]]:
    if not isinstance(value, list):
        raise ValueError(f"actions: expected a list of [seat, action], got {type(value).__name__}")
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, list) or len(item) != 2:
            raise ValueError(f"action {i}: expected [seat, action id], got {item!r}")
        seat, a = item
        if not _is_int(seat) or not 0 <= seat <= 3:
            raise ValueError(f"action {i}: seat must be 0..3, got {seat!r}")
        if a == PENALIZE_NAME:
            a = PENALIZE
        elif not _is_int(a) or not 0 <= a < A.NUM_ACTIONS:
            raise ValueError(f"action {i}: expected an action id 0..{A.NUM_ACTIONS - 1} or "
                             f"{PENALIZE_NAME!r}, got {a!r}")
        out.append((seat, a))
    return out


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and value == value and abs(value) != float("inf")


def check_annotations(value: object, actions: Sequence[tuple[int, int]]) -> None:
    """ValueError unless ``value`` is a valid ``annotations`` field for ``actions``: a list of
    ``{"step", "seat", "top", "value"}`` objects (``value`` may be absent or null) whose
    ``step`` indexes ``actions``, whose ``seat`` is that action's seat (an annotation is what
    the deciding seat reported), and whose ``top`` lists ``[action name, probability]`` pairs
    (names as ``mjenv.actions.action_to_string`` writes them, probabilities in 0..1).

    The shape is checked so that a viewer can trust it; the numbers are the agent's own."""
    if not isinstance(value, list):
        raise ValueError(f"annotations: expected a list, got {type(value).__name__}")
    for i, note in enumerate(value):
        where = f"annotations[{i}]"
        if not isinstance(note, dict):
            raise ValueError(f"{where}: expected an object, got {note!r:.80}")
        unknown = sorted(set(note) - set(ANNOTATION_KEYS))
        missing = [k for k in ("step", "seat", "top") if k not in note]
        if unknown or missing:
            raise ValueError(f"{where}: unknown keys {unknown}, missing keys {missing}; an "
                             f"annotation has {list(ANNOTATION_KEYS)}")
        step, seat = note["step"], note["seat"]
        if not _is_int(step) or not 0 <= step < len(actions):
            raise ValueError(f"{where}: step must index the {len(actions)} actions, "
                             f"got {step!r}")
        if not _is_int(seat) or seat != actions[step][0]:
            raise ValueError(f"{where}: seat {seat!r} did not take action {step} "
                             f"(seat {actions[step][0]} did)")
        top = note["top"]
        if not isinstance(top, list):
            raise ValueError(f"{where}: top must be a list of [action name, probability]")
        for j, pair in enumerate(top):
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                    and _is_number(pair[1]) and 0 <= pair[1] <= 1):
                raise ValueError(f"{where}.top[{j}]: expected [action name, probability in "
                                 f"0..1], got {pair!r:.80}")
            try:
                A.string_to_action(pair[0])
            except ValueError:
                raise ValueError(f"{where}.top[{j}]: not an action name: {pair[0]!r} "
                                 "(names: 'Pass', 'Win', 'Discard W1', ...)") from None
        v = note.get("value")
        if v is not None and not _is_number(v):
            raise ValueError(f"{where}: value must be a number or null, got {v!r:.80}")


def _same(a: object, b: object) -> bool:
    """Equal as JSON (so ``true`` is not ``1`` and ``1.0`` is not ``1``)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _first_difference(recorded: object, replayed: list[dict[str, object]], what: str) -> None:
    if not isinstance(recorded, list):
        raise ValueError(f"{what}: expected a list, got {type(recorded).__name__}")
    for i, (r, p) in enumerate(zip(recorded, replayed, strict=False)):
        if not _same(r, p):
            raise ValueError(f"{what}[{i}]: recorded {json.dumps(r, ensure_ascii=False)}, "
                             f"the replay gives {json.dumps(p, ensure_ascii=False)}")
    if len(recorded) != len(replayed):
        raise ValueError(f"{what}: {len(recorded)} recorded, the replay gives {len(replayed)}")


# ================================================================ replay
def replay(record: Record) -> Game:
    """Rebuild and replay a hand record; ValueError says what does not match and where."""
    rec = _check_header(record, FORMAT, FIELDS, OPTIONAL_FIELDS)
    if "botzone" in rec and not isinstance(rec["botzone"], dict):
        raise ValueError(f"botzone: expected an object, got {rec['botzone']!r:.80}")
    rules = rules_from_json(rec["rules"])
    seed = rec["seed"]
    if seed is not None and not _is_int(seed):
        raise ValueError(f"seed: expected an integer or null, got {seed!r}")
    wall = _wall_ids(rec["wall"], rules)
    for name in ("dealer", "prevalent_wind"):
        v = rec[name]
        if not _is_int(v) or not 0 <= v <= 3:
            raise ValueError(f"{name}: expected 0..3, got {v!r}")
    if rules.fixed_dealer is not None and rec["dealer"] != rules.fixed_dealer:
        raise ValueError(f"dealer: the {rules.profile} profile fixes the dealer at seat "
                         f"{rules.fixed_dealer}, got {rec['dealer']!r}")
    actions = _actions(rec["actions"])
    if "annotations" in rec:
        check_annotations(rec["annotations"], actions)
    try:
        game = Game(rules, seed=seed, wall=wall, dealer=rec["dealer"],
                    prevalent_wind=rec["prevalent_wind"])
    except ValueError as exc:
        raise ValueError(f"wall: {exc}") from None
    for i, (seat, a) in enumerate(actions):
        what = PENALIZE_NAME if a == PENALIZE else f"{a} {A.action_to_string(a)}"
        try:
            if a == PENALIZE:
                game.penalize(seat)
            else:
                game.step(seat, a)
        except ValueError as exc:
            raise ValueError(f"action {i} (seat {seat}: {what}): {exc}") from None
    _first_difference(rec["events"], [event_json(e) for e in game.events], "events")
    replayed = result_json(game.result)
    if not _same(rec["result"], replayed):
        if replayed is None:
            raise ValueError(f"result: recorded {rec['result']!r}, but the hand is not over "
                             f"after the {len(actions)} recorded actions")
        raise ValueError(f"result: recorded {json.dumps(rec['result'], ensure_ascii=False)}, "
                         f"the replay gives {json.dumps(replayed, ensure_ascii=False)}")
    return game


def replay_match(record: Record) -> list[Game]:
    """Replay every hand of a match record; checks each hand's rules, dealer and wind, that
    every hand is over, and the cumulative scores. Returns the replayed hands."""
    rec = _check_header(record, MATCH_FORMAT, MATCH_FIELDS)
    rules = rules_from_json(rec["rules"])
    seed = rec["seed"]
    if seed is not None and not _is_int(seed):
        raise ValueError(f"seed: expected an integer or null, got {seed!r}")
    hands = rec["hands"]
    if not isinstance(hands, list) or len(hands) > rules.hands_per_match:
        raise ValueError(f"hands: expected a list of at most {rules.hands_per_match} hand "
                         f"records, got {hands!r:.80}")
    games = []
    scores = [0, 0, 0, 0]
    for h, hand in enumerate(hands):
        try:
            game = replay(hand)
            if game.rules != rules:
                raise ValueError(f"rules: {rules_json(game.rules)} differ from the match's "
                                 f"{rules_json(rules)}")
            dealer = h % 4 if rules.fixed_dealer is None else rules.fixed_dealer
            if (game.dealer, game.prevalent_wind) != (dealer, (h // 4) % 4):
                raise ValueError(f"dealer {game.dealer}, prevalent wind {game.prevalent_wind}: "
                                 f"hand {h} has dealer {dealer}, prevalent wind {(h // 4) % 4}")
            if game.result is None:
                raise ValueError("the hand is not over")
        except ValueError as exc:
            raise ValueError(f"hands[{h}]: {exc}") from None
        for s in range(4):
            scores[s] += game.result.payments[s]
        games.append(game)
    if not _same(rec["scores"], scores):
        raise ValueError(f"scores: recorded {rec['scores']!r}, the hands sum to {scores}")
    return games
