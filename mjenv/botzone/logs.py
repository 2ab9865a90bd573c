"""Game logs between the two worlds: a Botzone judge log <-> an mjenv hand record.

>>> record = record_of_log(judge_log)          # doctest: +SKIP
>>> log_of_record(record) == canonical_log(judge_log)   # doctest: +SKIP
True

A **judge log** is what Botzone keeps of a Mahjong game (docs/botzone.md): the
judge's ``initdata`` (``srand``, ``quan``, ``walltiles``) and ``log``, alternating the judge's
outputs (``{"output": {"command": "request", "content": {"0": line, ...}}}``, the last one
``"command": "finish"`` with the scores) and the four bots' replies (``{"0": {"verdict": "OK",
"response": "PASS"}, ...}``). :func:`canonical_log` keeps exactly what this module reads and
writes: ``initdata``; per judge output its ``command`` and ``content`` (and for the finish the
``display`` fields ``action``, ``player``, ``score`` and, for a win, ``fan`` and ``fanCnt``);
per reply its ``verdict`` and ``response``. What it drops is for the platform's viewer
(a request's ``display``), timing (``time``, ``memory``, ``keep_running``), or the error code the
judge prints as a false win's ``fanCnt``.

:func:`record_of_log` replays the log through :class:`mjenv.botzone.Judge` (every request must be
the one the judge sends, and the game must end as the log says) and returns the hand's record
(mjenv.engine.record; ``seed`` is the judge's ``srand``). The record's actions say what each
seat did; the replies they cannot say — a claim that lost to another (with the discard the bot
named), a malformed answer, a verdict other than ``OK`` — are kept in the record's optional
``botzone`` field as ``{"replies": [[turn, seat, verdict, response], ...]}``.

:func:`log_of_record` goes back: it replays the record, writes every turn's requests
(mjenv.botzone.turns) and each seat's reply from the actions (``PASS`` where a seat did
nothing), applies the ``botzone`` replies, and lets the Judge read the whole game again for the
finish. For a record made elsewhere (the env, the arena) the replies nobody wrote are filled in
plausibly: a claim that lost names the lowest tile the bot could then have discarded, and a
penalty with no recorded reason is the verdict ``RE`` (the program failed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mjenv import actions as A
from mjenv.botzone.judge import Finish, Judge, Reply
from mjenv.botzone.seat import response_of
from mjenv.botzone.turns import Turn, TurnWriter
from mjenv.engine.game import PENALIZE, PLAY, TURN_CLAIM, Game
from mjenv.engine.record import Record, record_of, replay
from mjenv.inputs import parse_json
from mjenv.tiles import CODES, NUM_KINDS

Log = dict[str, Any]
_FINISH_KEYS = ("action", "player", "score", "fan", "fanCnt")


# ================================================================ reading a judge log
def _get(obj: object, key: str, what: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise ValueError(f"{what}: missing {key!r}")
    return obj[key]


def _seats(obj: object, what: str) -> list[Any]:
    if not isinstance(obj, dict) or sorted(obj) != ["0", "1", "2", "3"]:
        raise ValueError(f"{what}: expected an object keyed \"0\"..\"3\"")
    return [obj[str(s)] for s in range(4)]


def _initdata(log: Log) -> dict[str, Any]:
    init = log.get("initdata")
    if init is None:  # a bare log: the judge's first output carries it
        first = _get(log, "log", "the log")
        entry = first[0] if isinstance(first, list) and first else None
        output = entry.get("output") if isinstance(entry, dict) else None
        init = output.get("initdata") if isinstance(output, dict) else None
    if isinstance(init, str):
        try:
            init = parse_json(init)
        except ValueError as exc:
            raise ValueError(f"initdata: not JSON: {exc}") from None
    if not isinstance(init, dict):
        raise ValueError("initdata: expected an object with quan and walltiles")
    for key in ("quan", "walltiles"):
        _get(init, key, "initdata")
    return {"srand": init.get("srand"), "quan": init["quan"], "walltiles": init["walltiles"]}


def canonical_log(log: Log) -> Log:
    """The parts of a judge log this module reads and writes (see the module docstring);
    ValueError if the log is malformed."""
    if not isinstance(log, dict):
        raise ValueError(f"a judge log is a JSON object, got {type(log).__name__}")
    entries = _get(log, "log", "the log")
    if not isinstance(entries, list) or len(entries) % 2 != 1:
        raise ValueError("log: expected judge outputs and replies alternating, ending with "
                         "the judge's finish")
    out: list[dict[str, Any]] = []
    for k, entry in enumerate(entries):
        what = f"log[{k}]"
        if k % 2:
            replies = _seats(entry, what)
            if not all(isinstance(r, dict) for r in replies):
                raise ValueError(f"{what}: a seat's reply is not an object with response "
                                 "and verdict")
            out.append({str(s): {"verdict": r.get("verdict", "OK"),
                                 "response": r.get("response", "")}
                        for s, r in enumerate(replies)})
            continue
        output = _get(entry, "output", what)
        command = _get(output, "command", what)
        content = _seats(_get(output, "content", what), what)
        item: dict[str, Any] = {"command": command,
                                "content": {str(s): c for s, c in enumerate(content)}}
        if command == "finish":
            display = output.get("display") or {}
            if not isinstance(display, dict):
                raise ValueError(f"{what}: the finish's display is not an object")
            item["display"] = {key: display[key] for key in _FINISH_KEYS
                               if key in display and display[key] is not None}
            if display.get("action") != "HU":
                item["display"].pop("fanCnt", None)
                item["display"].pop("fan", None)
        elif command != "request":
            raise ValueError(f"{what}: unknown command {command!r}")
        out.append({"output": item})
    if out[-1]["output"]["command"] != "finish":
        raise ValueError("log: the last judge output is not the finish")
    return {"initdata": _initdata(log), "log": out}


def _turns(log: Log) -> list[tuple[list[str], list[Reply] | None]]:
    entries = log["log"]
    turns: list[tuple[list[str], list[Reply] | None]] = []
    for k in range(0, len(entries) - 1, 2):
        requests = [entries[k]["output"]["content"][str(s)] for s in range(4)]
        replies = [Reply(str(r["response"]), str(r["verdict"]))
                   for r in (entries[k + 1][str(s)] for s in range(4))]
        turns.append((requests, replies))
    return turns


def _finish_json(finish: Finish) -> dict[str, Any]:
    content = {str(s): finish.scores[s] for s in range(4)}
    display: dict[str, Any] = {"action": finish.action}
    if finish.player is not None:
        display["player"] = finish.player
    if finish.action != "HUANG":  # the judge shows no scores with a draw
        display["score"] = list(finish.scores)
    if finish.action == "HU":
        display["fan"] = [{"cnt": c, "name": n, "value": v} for n, c, v in finish.fans]
        display["fanCnt"] = finish.fan_count
    return {"command": "finish", "content": content, "display": display}


def _same_finish(got: dict[str, Any], want: dict[str, Any]) -> bool:
    def norm(item: dict[str, Any]) -> str:
        d = dict(item["display"])
        d.pop("score", None)
        if "fan" in d:
            d["fan"] = sorted(json.dumps(f, sort_keys=True, ensure_ascii=False)
                              for f in d["fan"])
        return json.dumps([item["content"], d], sort_keys=True, ensure_ascii=False)

    return norm(got) == norm(want)


def record_of_log(log: Log) -> Record:
    """The hand record of a judge log (see the module docstring); ValueError says where the
    log and our judge part ways."""
    canon = canonical_log(log)
    init = canon["initdata"]
    judge = Judge(init["walltiles"], init["quan"])
    for k, (requests, replies) in enumerate(_turns(canon)):
        if judge.is_over:
            raise ValueError(f"turn {k}: the game is over (the judge finished at turn {k - 1})")
        sent = list(judge.requests())
        if sent != requests:
            s = next(i for i in range(4) if sent[i] != requests[i])
            raise ValueError(f"turn {k}: the log sends seat {s} {requests[s]!r}, the judge "
                             f"sends {sent[s]!r}")
        assert replies is not None
        judge.respond(replies)
    if judge.finish is None:
        raise ValueError("the log ends before the game does")
    want = canon["log"][-1]["output"]
    if not _same_finish(_finish_json(judge.finish), want):
        raise ValueError(f"the log finishes {json.dumps(want, ensure_ascii=False)}, the judge "
                         f"{json.dumps(_finish_json(judge.finish), ensure_ascii=False)}")
    record = record_of(judge.game)
    srand = init["srand"]
    record["seed"] = srand if isinstance(srand, int) and not isinstance(srand, bool) else None
    implied = _replies_of(judge.game, record, {})[1]
    passes = [Reply("PASS")] * 4
    extra = [[k, s, reply.verdict, reply.response]
             for k, (_, replies) in enumerate(_turns(canon)) if replies is not None
             for s, reply in enumerate(replies)
             if (implied[k] if k < len(implied) else passes)[s] != reply]
    if extra:
        record["botzone"] = {"replies": extra}
    return record


# ================================================================ writing a judge log
def _lowest_discard_after(game: Game, seat: int, action: int) -> int:
    """A discard the claimer could make after ``action`` (used for a claim that lost)."""
    hand = game.hands[seat][:]
    kind, t = A.decode(action)
    if kind == A.K_PUNG:
        hand[t] -= 2
    else:
        middle, _ = A.decode_chow(action)
        for x in (middle - 1, middle, middle + 1):
            if x != t:
                hand[x] -= 1
    return A.discard(next(x for x in range(NUM_KINDS) if hand[x] > 0))


def _overrides(record: Record) -> dict[tuple[int, int], Reply]:
    extra = record.get("botzone", {}).get("replies", [])
    out: dict[tuple[int, int], Reply] = {}
    if not isinstance(extra, list):
        raise ValueError("botzone.replies: expected a list")
    for i, item in enumerate(extra):
        ok = isinstance(item, list) and len(item) == 4 and all(
            isinstance(x, int) and not isinstance(x, bool) for x in item[:2]) and all(
            isinstance(x, str) for x in item[2:])
        if not ok or not 0 <= item[1] <= 3:
            raise ValueError(f"botzone.replies[{i}]: expected [turn, seat, verdict, response], "
                             f"got {item!r}")
        out[(item[0], item[1])] = Reply(item[3], item[2])
    return out


def _replies_of(original: Game, record: Record, overrides: dict[tuple[int, int], Reply]
                ) -> tuple[list[Turn], list[list[Reply]]]:
    """Replay ``record``'s actions on a fresh copy of its deal; returns every judge turn and
    the four replies the actions imply (``overrides`` applied)."""
    game = Game(original.rules, wall=list(original.wall.tiles), dealer=original.dealer,
                prevalent_wind=original.prevalent_wind)
    writer = TurnWriter(original.prevalent_wind)
    turns = writer.feed(game.events)
    said: list[list[str]] = [["PASS"] * 4 for _ in turns]
    claims: dict[int, tuple[int, int]] = {}  # seat -> (turn, chow or pung) awaiting a discard
    penalized: tuple[int, int] | None = None
    last = 0  # the turn of the latest action
    for seat, action in original.actions:
        k = len(turns) - 1
        if action == PENALIZE:
            # the judge reads the turns after the latest action's one by one: the penalty is
            # at the first of them where this seat's reply is on record, else at the last
            at = [t for (t, s) in overrides if s == seat and last <= t < len(turns)]
            penalized = (min(at, default=k), seat)
            game.penalize(seat)
            break
        last = k
        if game.phase == PLAY and game.turn_kind == TURN_CLAIM and seat in claims:
            ck, claim = claims.pop(seat)
            said[ck][seat] = response_of(claim, action)
        elif A.decode(action)[0] in (A.K_CHOW, A.K_PUNG):
            claims[seat] = (k, action)
            said[k][seat] = response_of(action, _lowest_discard_after(game, seat, action))
        else:
            said[k][seat] = response_of(action)
        n = len(game.events)
        game.step(seat, action)
        new = writer.feed(game.events[n:])
        turns.extend(new)
        said.extend(["PASS"] * 4 for _ in new)
    replies = [[Reply(r) for r in row] for row in said]
    if penalized is not None:
        k, seat = penalized
        del turns[k + 1:], replies[k + 1:]
        replies[k][seat] = Reply("", "RE")
    return turns, replies


def log_of_record(record: Record) -> Log:
    """The judge log of a botzone-profile hand record (canonical form, see
    :func:`canonical_log`); ValueError if the record is invalid, not a finished botzone
    hand, or its replies do not make the judge end the game as the record does."""
    game = replay(record)
    if game.rules.wall_layout != "per_seat" or game.dealer != 0:
        raise ValueError("only a botzone-profile hand has a judge log")
    if game.result is None:
        raise ValueError("the hand is not over")
    overrides = _overrides(record)
    turns, replies = _replies_of(game, record, overrides)
    judge = Judge([CODES[t] for t in game.wall.tiles], game.prevalent_wind)
    entries: list[dict[str, Any]] = []
    k = 0
    while not judge.is_over:  # the judge may read turns past the record's last event
        sent = judge.requests()
        if k < len(turns) and sent != turns[k].requests:
            raise ValueError(f"turn {k}: the judge sends {sent}, the record {turns[k].requests}")
        row = replies[k] if k < len(replies) else [Reply("PASS")] * 4
        row = [overrides.get((k, s), row[s]) for s in range(4)]
        entries.append({"output": {"command": "request",
                                   "content": {str(s): sent[s] for s in range(4)}}})
        entries.append({str(s): {"verdict": r.verdict, "response": r.response}
                        for s, r in enumerate(row)})
        judge.respond(row)
        k += 1
    if k < len(turns):
        raise ValueError(f"the judge finished at turn {k - 1}, before the record's last turn")
    unused = sorted(key for key in overrides if key[0] >= k)
    if unused:
        raise ValueError(f"botzone.replies: turn {unused[0][0]} comes after the judge's "
                         f"finish (turn {k - 1})")
    if judge.finish is None:
        raise ValueError("the record's replies do not end the judge's game")
    result = game.result
    if list(judge.finish.scores) != list(result.payments):
        raise ValueError(f"the judge scores {judge.finish.scores}, the record "
                         f"{result.payments}")
    entries.append({"output": _finish_json(judge.finish)})
    seed = record.get("seed")
    return {"initdata": {"srand": seed, "quan": game.prevalent_wind,
                         "walltiles": " ".join(CODES[t] for t in game.wall.tiles)},
            "log": entries}


# ================================================================ files
def load_log(path: str | Path) -> Log:
    """A judge log from a JSON file (ValueError if unreadable or not an object)."""
    try:
        data = parse_json(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # ValueError: not UTF-8, not JSON, nested too deep
        raise ValueError(f"cannot read {str(path)!r}: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{str(path)!r}: a judge log is a JSON object")
    return data


def log_json(log: Log) -> str:
    """JSON text of a log: one line per judge output and per reply."""
    head = json.dumps(log["initdata"], ensure_ascii=False)
    body = ",\n  ".join(json.dumps(e, ensure_ascii=False) for e in log["log"])
    return f'{{"initdata": {head},\n "log": [\n  {body}\n ]}}\n'


__all__ = ["canonical_log", "load_log", "log_json", "log_of_record", "record_of_log"]

