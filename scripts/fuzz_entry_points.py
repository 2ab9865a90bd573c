"""Fuzz every entry point of mjenv that reads outside input, for a bounded time.

    python scripts/fuzz_entry_points.py [--seconds 180] [--seed 0] [--only NAME ...]
                                        [--json runs/fuzz/report.json] [--failures DIR]

Why: mjenv promises that bad input gets an answer (the JSON Lines stream) or one line on
stderr and exit status 2 (the commands), never a traceback, and that the environment raises
``ValueError`` for bad reset options and actions. Hand-written tests check the cases someone
thought of; this job throws mutated inputs at every reader and checks the promise on each.

Entry points (``--only`` takes these names):

==============  ==================================================================================
jsonl           ``python -m mjenv.fans`` / ``mjenv fan --jsonl``: lines of requests, some longer
                than the limit; every non-blank line answered, exit 0, no ``internal`` error
replay          ``mjenv replay FILE [--seat N] [--html OUT]``: hand and match records
view            ``mjenv view FILE --out OUT``: records
botzone-log     ``mjenv botzone-log to-record LOG OUT`` and ``from-record RECORD OUT``
botzone-bot     ``mjenv botzone-bot --agent random [--keep-running]``: JSON and simple input
train-config    ``mjenv train --config FILE`` (the stages are stubbed: only the config is read)
agent-spec      ``mjenv arena --agents SPEC random --deals 1``
checkpoint      ``mjenv botzone-bot --agent policy:FILE``: corrupted checkpoints (needs torch)
argv            ``mjenv ARGS``: random arguments of every command
env             ``mjenv.raw_env`` / ``mjenv.env`` / ``SingleAgentEnv``: ``reset(seed, options)``
                and ``step(action)`` with odd values; only ``ValueError`` may come out
==============  ==================================================================================

Inputs are valid seeds (records of random games played now, the judge log of one, requests,
the built-in configs, a small checkpoint) mutated at the byte level (bit flips, cut, repeated
and spliced spans, inserted tokens such as 1,000 ``[``, a 5,000-digit number, a lone
surrogate, invalid UTF-8) or in their structure (a value of the decoded JSON, TOML or
checkpoint replaced by an odd one: another type, a negative or huge number, deep nesting).

Each command runs in this process (``mjenv.cli.main(argv)`` with stdin, stdout and stderr
replaced, ``SystemExit`` caught), which makes thousands of inputs a minute possible. A run
passes when its exit status is 0 or 2, no exception escapes, stderr has no ``Traceback``, and a
status 2 comes with one line on stderr (after argparse's usage summary, for a usage error).

The time is shared by the entry points in proportion to their weights. Output: a table of the
inputs tried, failures and seconds per entry point on stdout, the same as JSON (``--json``),
and each distinct failure's input in ``--failures`` (to reproduce it). Exit status 1 when a
run failed, 0 otherwise. ``make fuzz`` runs it; CI runs ``make fuzz`` after ``make test``.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import math
import os
import random
import re
import shutil
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SECONDS = 180.0

# ====================================================================== running a command


@dataclass
class Outcome:
    """What one in-process run of a command gave."""

    status: int
    stdout: bytes
    stderr: str
    crash: str | None = None
    """The traceback of an exception that escaped ``main``."""


def _text_stream(data: bytes = b"") -> io.TextIOWrapper:
    """A stream like the interpreter's own (``.buffer``, ``reconfigure``), over memory."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline=None,
                            write_through=True)


def run_main(main: Callable[[list[str]], int | None], argv: list[str],
             stdin: bytes = b"") -> Outcome:
    """``main(argv)`` with stdin ``stdin`` and captured stdout and stderr, as a process would
    run it: the status is what it returns or what ``SystemExit`` carries."""
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = _text_stream(), _text_stream()
    err.reconfigure(errors="backslashreplace")  # as the interpreter's stderr
    sys.stdin, sys.stdout, sys.stderr = _text_stream(stdin), out, err
    crash = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            returned = main(argv)
        status = 0 if returned is None else int(returned)
    except SystemExit as exc:
        code = exc.code
        status = code if isinstance(code, int) else (0 if code is None else 1)
    except BaseException:  # noqa: BLE001 - whatever escapes is the finding
        crash = traceback.format_exc()
        status = 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    with contextlib.suppress(ValueError):
        out.flush()
        err.flush()
    stdout = out.buffer.getvalue()  # type: ignore[attr-defined]
    stderr = err.buffer.getvalue().decode("utf-8", "replace")  # type: ignore[attr-defined]
    return Outcome(status, stdout, stderr, crash)


def cli(argv: list[str], stdin: bytes = b"") -> Outcome:
    from mjenv.cli import main

    return run_main(main, argv, stdin)


def crash_summary(text: str) -> str:
    """An escaped exception in one line: its type and message, and where it was raised (the
    innermost frame), which tells distinct bugs apart."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', text)
    where = ""
    if frames:
        path, line, function = frames[-1]
        where = f" at {Path(path).name}:{line} ({function})"
    return f"{text.strip().splitlines()[-1][:200]}{where}"


def judge(outcome: Outcome) -> str | None:
    """Why the run breaks the promise, or None (see the module docstring)."""
    if outcome.crash is not None:
        return f"exception escaped: {crash_summary(outcome.crash)}"
    if outcome.status not in (0, 2):
        return f"exit status {outcome.status}"
    if "Traceback" in outcome.stderr:
        return "Traceback on stderr"
    if outcome.status == 2:
        lines = outcome.stderr.splitlines()
        if lines and lines[0].startswith("usage:"):  # argparse: the usage, then the error
            lines = [line for line in lines[1:] if not line.startswith(" ")]
        lines = [line for line in lines if not NOTE.match(line)]
        if len(lines) != 1 or not lines[0].strip():
            return f"status 2 with {len(lines)} lines on stderr"
    return None


NOTE = re.compile(r"mjenv view: skipping .*: not a hand or match record$")
"""Lines a failing command may print before its error: notes on what it read (``mjenv view``
of a folder names the files that are not records)."""


# ====================================================================== mutation
TOKENS = [b"[" * 1000, b"{\"a\":" * 300, b"1" * 5000, b"\"\\ud800\"", b"NaN", b"-1", b"1e999",
          b"null", b"true", b"{}", b"[]", b"\"\"", b"\xff\xfe", b"\x00", b"\n", b"\r\n", b"-0",
          b"99999999999999999999", b"\"", b",", b":", b"W1", b"H1", b"J3", b"0", b"4", b"\t",
          b"PASS", b"PLAY", b"CHI", b"PENG", b"GANG", b"HU", b"\xe4\xb8\xad", b"\\"]
"""Byte strings that break parsers: deep nesting, long numbers, escapes, bad UTF-8, words of
the formats read (tiles, Botzone's commands)."""

DEEP_LIST: Any = []
for _ in range(70):
    DEEP_LIST = [DEEP_LIST]

ODD_VALUES: list[Any] = [None, True, False, 0, -1, 1, 3, 4, 255, 2 ** 31, 2 ** 63, -2 ** 63,
                         10 ** 30, 1.5, -0.0, 1e308, math.inf, "", "x", "W1", "H1", "F5",
                         "\ud800", "中", " ", "0", "-1", "1e999", [], {}, [None], [[[]]],
                         {"a": 1}, ["W1"] * 20, list(range(40)), DEEP_LIST]
"""Odd values for a structured mutation: other types, signs, sizes, nesting."""


def mutate_bytes(data: bytes, rng: random.Random, other: bytes = b"") -> bytes:
    """``data`` with one to four byte-level changes."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        at = rng.randrange(len(buf) + 1)
        if op == 0 and buf:  # flip a bit
            i = min(at, len(buf) - 1)
            buf[i] ^= 1 << rng.randrange(8)
        elif op == 1 and buf:  # a random byte
            buf[min(at, len(buf) - 1)] = rng.randrange(256)
        elif op == 2:  # insert a token
            buf[at:at] = rng.choice(TOKENS)
        elif op == 3 and buf:  # delete a span
            buf[at:at + rng.randint(1, 64)] = b""
        elif op == 4 and buf:  # repeat a span
            span = bytes(buf[at:at + rng.randint(1, 64)])
            buf[at:at] = span * rng.randint(1, 8)
        elif op == 5:  # cut
            del buf[at:]
        elif op == 6 and other:  # splice from another seed
            start = rng.randrange(len(other))
            buf[at:at] = other[start:start + rng.randint(1, 256)]
        else:  # an ASCII digit or punctuation
            buf[at:at] = bytes([rng.choice(b"0123456789-.,:[]{}\" ")])
    return bytes(buf)


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The paths of every value inside ``value`` (the root is ``()``)."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _nodes(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _nodes(child, (*path, i))


def mutate_value(value: Any, rng: random.Random) -> Any:
    """A copy of decoded JSON (or TOML) ``value`` with one to three structural changes: a value
    replaced by an odd one, a key dropped or added, a list shortened or an item repeated."""
    value = copy.deepcopy(value)
    for _ in range(rng.randint(1, 3)):
        paths = list(_nodes(value))
        path = rng.choice(paths)
        if not path:
            if rng.random() < 0.1:
                value = copy.deepcopy(rng.choice(ODD_VALUES))
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        op = rng.randrange(6)
        if op == 0 and isinstance(parent, dict):
            del parent[key]
        elif op == 1 and isinstance(parent, dict):
            parent[rng.choice(["extra", "0", "", "format", "version", key + "_"])] = \
                copy.deepcopy(rng.choice(ODD_VALUES))
        elif op == 2 and isinstance(parent, list):
            del parent[key:]
        elif op == 3 and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif op == 4 and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] += rng.choice([-1, 1, -100, 100, 2 ** 40])
        else:
            parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
    return value


def mutated_json(seed: Any, rng: random.Random, other: bytes = b"") -> bytes:
    """Half the time a structural mutation of ``seed`` written as JSON, else its JSON text
    mutated at the byte level."""
    if rng.random() < 0.5:
        text = json.dumps(mutate_value(seed, rng), ensure_ascii=rng.random() < 0.5)
        return text.encode("utf-8", "surrogatepass")  # a lone surrogate: bytes no UTF-8 has
    return mutate_bytes(json.dumps(seed, ensure_ascii=False).encode(), rng, other)


# ====================================================================== seeds
def random_game(rules_name: str, seed: int) -> Any:
    """A hand played by random legal moves (the engine's own; no agent)."""
    from mjenv.engine import BOTZONE, MCR, Game

    rng = random.Random(seed)
    game = Game(BOTZONE if rules_name == "botzone" else MCR, seed=seed)
    _play_out(game, rng)
    return game


def _play_out(game: Any, rng: random.Random) -> None:
    while not game.is_over:
        seat = next(s for s in game.to_act() if game.legal_actions(s))
        game.step(seat, rng.choice(game.legal_actions(seat)))


def random_match(seed: int) -> Any:
    from mjenv.engine.match import Match

    rng = random.Random(seed)
    match = Match(seed=seed)
    while True:
        _play_out(match.game, rng)
        if match.next_hand() is None:
            return match


@dataclass
class Seeds:
    """Valid inputs of every format, made once per run."""

    hand_records: list[Any] = field(default_factory=list)
    match_records: list[Any] = field(default_factory=list)
    logs: list[Any] = field(default_factory=list)
    requests: list[Any] = field(default_factory=list)

    @classmethod
    def make(cls) -> Seeds:
        from mjenv.botzone.logs import log_of_record
        from mjenv.engine.record import match_record, record_of

        seeds = cls()
        for s in range(3):
            seeds.hand_records.append(record_of(random_game("mcr", s)))
            botzone = record_of(random_game("botzone", s))
            seeds.hand_records.append(botzone)
            seeds.logs.append(log_of_record(botzone))
        seeds.match_records.append(match_record(random_match(1)))
        seeds.requests = [
            {"hand": ["W1", "W1", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W9",
                      "W9"], "win_tile": "W5", "self_drawn": True},
            {"hand": ["B2", "B3", "B4", "T5", "T5"],
             "melds": [{"type": "pung", "tiles": ["F4", "F4", "F4"], "claimed": "F4", "from": 1},
                       {"type": "chow", "tiles": ["W1", "W2", "W3"], "claimed": "W2", "from": 3},
                       {"type": "concealed_kong", "tiles": ["J1"] * 4, "claimed": None,
                        "from": None}],
             "win_tile": "T5", "flowers": 2, "seat_wind": 3, "prevalent_wind": 1,
             "last_copy": False, "last_tile": True, "kong_win": False},
            {"hand": ["W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1", "J2",
                      "J3"], "win_tile": "W1"},
            {"hand": ["W2", "W3", "W4", "W5", "W6"], "win_tile": "W7"},
        ]
        return seeds


def bot_inputs(log: Any, rng: random.Random) -> tuple[list[str], list[str]]:
    """(requests, responses) of one seat up to a random turn of a judge log."""
    seat = str(rng.randrange(4))
    entries = log["log"]
    outputs = [e["output"] for e in entries[0::2] if e["output"]["command"] == "request"]
    replies = entries[1::2]
    turn = rng.randrange(1, len(outputs) + 1)
    requests = [o["content"][seat] for o in outputs[:turn]]
    responses = [r[seat]["response"] for r in replies[:turn - 1]]
    return requests, responses


# ====================================================================== entry points
@dataclass
class Tally:
    """What one entry point was given and how it fared."""

    name: str
    inputs: int = 0
    failures: int = 0
    seconds: float = 0.0
    distinct: dict[str, str] = field(default_factory=dict)
    """A failure's reason -> the file holding an input that gave it."""


class Fuzzer:
    """The entry points, each a method ``fuzz_<name>(rng)`` that tries one input and returns
    (failure reason or None, the input's bytes for reproduction, its file suffix)."""

    def __init__(self, work: Path, failures: Path, seeds: Seeds) -> None:
        self.work, self.failures, self.seeds = work, failures, seeds
        self.counter = 0
        self._checkpoint: Path | None = None

    def path(self, suffix: str) -> Path:
        self.counter += 1
        return self.work / f"input-{self.counter}{suffix}"

    def out(self, suffix: str = "") -> Path:
        self.counter += 1
        return self.work / f"out-{self.counter}{suffix}"

    # ------------------------------------------------------------------ JSON Lines
    def fuzz_jsonl(self, rng: random.Random) -> tuple[str | None, bytes, str]:
        from mjenv.fans.jsonl import main

        limit = rng.choice([None, 4096])
        lines = []
        for _ in range(rng.randint(1, 6)):
            seed = rng.choice(self.seeds.requests)
            kind = rng.random()
            if kind < 0.2:
                lines.append(json.dumps(seed).encode())
            elif kind < 0.85:
                lines.append(mutated_json(seed, rng).replace(b"\n", b" "))
            elif kind < 0.95:
                lines.append(rng.choice(TOKENS).replace(b"\n", b""))
            else:
                lines.append(b"[" * rng.choice([100, 5000, 70_000]))
        data = b"\n".join(lines) + rng.choice([b"\n", b""])
        argv = [] if limit is None else ["--max-line-bytes", str(limit)]
        outcome = run_main(main, argv, data)
        failure = judge(outcome)
        if failure is None and outcome.status != 0:
            failure = f"exit status {outcome.status} (the stream must go on)"
        if failure is None:
            failure = self._check_answers(data, outcome.stdout, limit or (1 << 20))
        return failure, data, ".jsonl"

    @staticmethod
    def _check_answers(data: bytes, stdout: bytes, limit: int) -> str | None:
        pieces = data.split(b"\n")
        if pieces and pieces[-1] == b"":
            pieces.pop()
        expected = 0
        for piece in pieces:
            try:
                blank = not piece.decode("utf-8").strip()
            except UnicodeDecodeError:
                blank = False
            expected += len(piece) > limit or not blank
        answers = stdout.decode("utf-8").splitlines()
        if len(answers) != expected:
            return f"{len(answers)} answers to {expected} non-blank lines"
        for answer in answers:
            value = json.loads(answer)
            if not isinstance(value, dict):
                return "an answer that is not a JSON object"
            if value.get("error") == "internal":
                return f"internal error: {str(value.get('message'))[:200]}"
        return None

    # ------------------------------------------------------------------ records
    def _record_bytes(self, rng: random.Random, matches: bool = True) -> bytes:
        pool = self.seeds.hand_records + (self.seeds.match_records if matches else [])
        other = json.dumps(rng.choice(pool)).encode()
        return mutated_json(rng.choice(pool), rng, other)

    def fuzz_replay(self, rng: random.Random) -> tuple[str | None, bytes, str]:
        data = self._record_bytes(rng)
        path = self.path(".json")
        path.write_bytes(data)
        argv = ["replay", str(path)]
        if rng.random() < 0.3:
            argv += ["--seat", str(rng.randrange(4))]
        if rng.random() < 0.2:
            argv += ["--html", str(self.out(".html"))]
        return judge(cli(argv)), data, ".json"

    def fuzz_view(self, rng: random.Random) -> tuple[str | None, bytes, str]:
        data = self._record_bytes(rng)
        path = self.path(".json")
        path.write_bytes(data)
        argv = ["view", str(path), "--out", str(self.out(".html"))]
        if rng.random() < 0.3:
            argv += ["--seat", str(rng.randrange(4))]
        return judge(cli(argv)), data, ".json"

    def fuzz_botzone_log(self, rng: random.Random) -> tuple[str | None, bytes, str]:
        if rng.random() < 0.6:
            direction = "to-record"
            other = json.dumps(rng.choice(self.seeds.logs)).encode()
            data = mutated_json(rng.choice(self.seeds.logs), rng, other)
        else:
            direction = "from-record"
            data = self._record_bytes(rng, matches=False)
        path = self.path(".json")
        path.write_bytes(data)
        argv = ["botzone-log", direction, str(path), str(self.out(".json"))]
        return judge(cli(argv)), data, ".json"

    # ------------------------------------------------------------------ a bot's input
    def fuzz_botzone_bot(self, rng: random.Random) -> tuple[str | None, bytes, str]:
        requests, responses = bot_inputs(rng.choice(self.seeds.logs), rng)
        keep = rng.random() < 0.3
        form = rng.random()
        if form < 0.5:
            seed: Any = {"requests": requests, "responses": responses}
            data = mutated_json(seed, rng) + b"\n"
        elif form < 0.8 or keep:
            body = [str(len(requests))]
            for request, response in zip(requests, [*responses, None], strict=True):
                body.append(request)
                if response is not None:
                    body.append(response)
            data = mutate_bytes("\n".join(body).encode() + b"\n", rng)
        else:
            data = mutate_bytes(b"\n".join(r.encode() for r in requests) + b"\n", rng)
        argv = ["botzone-bot", "--agent", rng.choice(["random", "random seed=3", "greedy"])]
        if keep:
            argv.append("--keep-running")
        return judge(cli(argv, data)), data, ".txt"

    # ------------------------------------------------------------------ training configs
    def fuzz_train_config(self, rng: random.Random) -> tuple[str | None, bytes, str]:
        import tomllib

        from mjenv.plugins import resolve_config

        text = resolve_config(rng.choice(["smoke", "demo", "long"])).read_bytes()
        if rng.random() < 0.5:
            data = mutate_bytes(text, rng)
        else:
            data = toml_text(mutate_value(tomllib.loads(text.decode()), rng)).encode()
        path = self.path(".toml")
        path.write_bytes(data)
        argv = ["train", "--config", str(path), "--out", str(self.out())]
        if rng.random() < 0.3:
            argv.append(rng.choice(["bc.hands=3", "ppo.updates=[1]", "bc=3", "seed=-1",
                                    "evaluate.opponents='x'", "bc.teacher=random seed=2",
                                    "nothing", "=", "bc.=1"]))
        with stub_training():
            return judge(cli(argv)), data, ".toml"

    # ------------------------------------------------------------------ agent specs
    SPECS = ["random", "random seed=1", "greedy", "greedy seed=3", "rule", "rule seed=2",
             "mjenv_agents.random_agent:RandomAgent seed=2", "no_such_module_x:Agent",
             "random seed=[1, 2]", "policy:/nonexistent/model.pt", "random seed='7'",
             "mjenv.tiles:CODES", "math:pi"]
    SAFE_IMPORTS = ("mjenv_agents", "no_such_module_x", "mjenv.tiles", "math")
    """Import strings a mutated spec may name in a run with imports on; any other module is
    run with ``MJENV_ALLOW_IMPORT=0`` (refused before the import): a mutation must not
    import a module with side effects of its own, or start a program."""

    def fuzz_agent_spec(self, rng: random.Random) -> tuple[str | None, bytes, str]:
        spec = mutate_text(rng.choice(self.SPECS), rng)
        with restricted_if_unsafe(spec, self.SAFE_IMPORTS):
            argv = ["arena", "--agents", spec, "random", "--deals", "1", "--out",
                    str(self.out()), "--no-progress"]
            outcome = cli(argv)
        return judge(outcome), spec.encode("utf-8", "surrogateescape"), ".txt"

    # ------------------------------------------------------------------ checkpoints
    def checkpoint(self) -> Path:
        """A small valid checkpoint (made once)."""
        if self._checkpoint is None:
            import importlib

            import torch

            policy = importlib.import_module("mjenv_agents.policy")
            torch.manual_seed(0)
            path = self.work / "seed.pt"
            policy.save_checkpoint(path, policy.PolicyNet(policy.PolicyConfig(channels=8,
                                                                              blocks=1)))
            self._checkpoint = path
        return self._checkpoint

    def fuzz_checkpoint(self, rng: random.Random) -> tuple[str | None, bytes, str]:
        import torch

        seed = self.checkpoint()
        path = self.path(".pt")
        if rng.random() < 0.5:
            data = mutate_bytes(seed.read_bytes(), rng)
            path.write_bytes(data)
        else:
            payload = torch.load(seed, weights_only=True)
            torch.save(mutate_checkpoint(payload, rng), path)
            data = path.read_bytes()
        requests, responses = bot_inputs(rng.choice(self.seeds.logs), rng)
        stdin = json.dumps({"requests": requests, "responses": responses}).encode() + b"\n"
        outcome = cli(["botzone-bot", "--agent", f"policy:{path}"], stdin)
        return judge(outcome), data, ".pt"

    # ------------------------------------------------------------------ argv
    def fuzz_argv(self, rng: random.Random) -> tuple[str | None, bytes, str]:
        record = self.work / "argv-record.json"
        if not record.exists():
            record.write_text(json.dumps(self.seeds.hand_records[0]))
            (self.work / "argv-log.json").write_text(json.dumps(self.seeds.logs[0]))
        argv = random_argv(rng, self.work, self.out)
        stdin = rng.choice([b"", b"q\n", b"1\n" * 200 + b"n\n", mutate_bytes(b"0 1 0\n", rng)])
        # in the work folder: a value that lands as an output path (botzone-log's OUT given
        # "from-record", say) is relative, and must not write into the caller's folder
        with stub_training(), imports_off(), contextlib.chdir(self.work):
            outcome = cli(argv, stdin)
        data = json.dumps(argv, ensure_ascii=False).encode("utf-8", "surrogateescape")
        return judge(outcome), data, ".argv.json"

    # ------------------------------------------------------------------ the environment
    def fuzz_env(self, rng: random.Random) -> tuple[str | None, bytes, str]:
        calls: list[str] = []
        from pettingzoo.utils.env_logger import EnvLogger

        EnvLogger.suppress_output()  # its order warnings: the wrapped env's documented answer
        try:
            with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
                warnings.simplefilter("ignore")  # penalties, PettingZoo's order warnings
                env_episode(rng, calls)
        except ValueError:
            failure = None
        except Exception:  # noqa: BLE001 - the finding
            failure = f"{traceback.format_exc().strip().splitlines()[-1][:300]} after " \
                      f"{calls[-1] if calls else 'nothing'}"
        else:
            failure = None
        return failure, "\n".join(calls).encode("utf-8", "backslashreplace"), ".calls.txt"


def toml_text(data: Any) -> str:
    """Decoded TOML (top-level keys, one level of tables) written back as TOML; a value TOML
    cannot hold (None, a mixed structure) becomes a string."""

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v) if not isinstance(v, float) or math.isfinite(v) else "nan"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(str(k))} = {value(x)}" for k, x in v.items()) \
                + "}"
        return json.dumps(str(v))

    if not isinstance(data, dict):
        return f"value = {value(data)}\n"
    lines = [f"{json.dumps(str(k))} = {value(v)}" for k, v in data.items()
             if not isinstance(v, dict)]
    for name, table in data.items():
        if isinstance(table, dict):
            lines.append(f"[{json.dumps(str(name))}]")
            lines += [f"{json.dumps(str(k))} = {value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


SPEC_ALPHABET = "abcdefghijklmnopqrstuvwxyz_.:= '\"[](){},0123456789-+/\\\t中\udcff"


def mutate_text(text: str, rng: random.Random) -> str:
    """``text`` with one to three character-level changes, or a long token inserted."""
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(chars) + 1)
        op = rng.randrange(5)
        if op == 0 and chars:
            del chars[min(at, len(chars) - 1)]
        elif op == 1:
            chars.insert(at, rng.choice(SPEC_ALPHABET))
        elif op == 2 and chars:
            chars[min(at, len(chars) - 1)] = rng.choice(SPEC_ALPHABET)
        elif op == 3:
            chars[at:at] = list(rng.choice(["seed=", " seed=", "-" * 3000, "1" * 5000,
                                            "[" * 300, " x=1", "=", "policy:", ":"]))
        else:
            del chars[at:]
    return "".join(chars)


@contextlib.contextmanager
def restricted_if_unsafe(spec: str, safe: tuple[str, ...]) -> Iterator[None]:
    """Run with ``MJENV_ALLOW_IMPORT=0`` unless ``spec`` is a registered name or imports only
    from ``safe``: then the spec is refused before anything is imported."""
    from mjenv.agent import registered_agents

    head = spec.strip().split(None, 1)[0] if spec.strip() else ""
    name = head.partition(":")[0]
    unsafe = name not in registered_agents() \
        and not any(name == module or name.startswith(module + ".") for module in safe)
    unsafe = unsafe or name.startswith("botzone")  # runs programs
    with imports_off() if unsafe else contextlib.nullcontext():
        yield


@contextlib.contextmanager
def imports_off() -> Iterator[None]:
    """``MJENV_ALLOW_IMPORT=0`` for a while: specs name registered agents only."""
    before = os.environ.get("MJENV_ALLOW_IMPORT")
    os.environ["MJENV_ALLOW_IMPORT"] = "0"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("MJENV_ALLOW_IMPORT", None)
        else:
            os.environ["MJENV_ALLOW_IMPORT"] = before


@contextlib.contextmanager
def stub_training() -> Iterator[None]:
    """``mjenv train`` reads its config and arguments as always, then stops before training:
    the pipeline's ``run`` returns at once."""
    try:
        import importlib

        pipeline = importlib.import_module("mjenv_agents.train.pipeline")
    except ImportError:  # no train extra: the command says so in one line
        yield
        return
    real = pipeline.run
    setattr(pipeline, "run", lambda p, progress=True: pipeline.trained_policy(p))  # noqa: B010
    try:
        yield
    finally:
        setattr(pipeline, "run", real)  # noqa: B010


def mutate_checkpoint(payload: Any, rng: random.Random) -> Any:
    """A checkpoint's dict with one or two changes: its config (modest sizes: a malicious
    checkpoint can ask for any memory, see docs/security.md), a tensor's shape or type, a key
    dropped or added, the format or the version."""
    import torch

    payload = copy.copy(payload)
    for _ in range(rng.randint(1, 2)):
        op = rng.randrange(6)
        if op == 0 and isinstance(payload.get("config"), dict):
            config = dict(payload["config"])
            key = rng.choice(list(config))
            config[key] = rng.choice([None, -1, 0, 1, 2, 16, 3.5, "x", "shanten-v1", [86, 34],
                                      [0, 34], [86], (86, 34, 1), True])
            payload["config"] = config
        elif op == 1 and isinstance(payload.get("model"), dict) and payload["model"]:
            model = dict(payload["model"])
            key = rng.choice(list(model))
            model[key] = rng.choice([torch.zeros(3), torch.zeros(1, 2, 3),
                                     torch.zeros(model[key].shape, dtype=torch.int64)
                                     if hasattr(model[key], "shape") else torch.zeros(1),
                                     torch.tensor(float("nan")), 3, "x", None])
            payload["model"] = model
        elif op == 2 and payload:
            payload.pop(rng.choice(list(payload)), None)
        elif op == 3:
            payload[rng.choice(["format", "version", "extra", "config", "model"])] = \
                copy.deepcopy(rng.choice(ODD_VALUES[:20]))
        elif op == 4 and isinstance(payload.get("model"), dict):
            model = dict(payload["model"])
            model["unexpected.weight"] = torch.zeros(2)
            payload["model"] = model
        else:
            payload = rng.choice([[], {}, 3, "x", {"format": "mjenv-policy"}])
            break
    return payload


# ---------------------------------------------------------------------- random arguments
VALUES = ["-1", "0", "1", "2", "3", "x", "", "1.5", "99999999999999999999", " 3", "-0", "E",
          "W1", "1112345678999m", "5m", "123m456s789p11z", "中", "\udcff", "--", "-", "none",
          "all", "won", "sample:2", "sample:x", "mcr", "botzone", "hand", "match", "1v3", "four",
          "random", "random seed=2", "greedy", "policy:/nonexistent.pt", "/nonexistent/x",
          "mjenv-v1", "ijcai-v1", "cyclic", "smoke", "64k", "0k"]
COMMANDS: dict[str, list[str]] = {
    "fan": ["--jsonl", "--win", "--chow", "--pung", "--kong", "--added-kong", "--concealed-kong",
            "--self-drawn", "--last-copy", "--last-tile", "--kong-win", "--seat-wind",
            "--prevalent-wind", "--flowers", "--max-line-bytes", "HAND"],
    "hand": ["--seen", "--chow", "--pung", "--kong", "--added-kong", "--concealed-kong",
             "--self-drawn", "--last-copy", "--last-tile", "--kong-win", "--seat-wind",
             "--prevalent-wind", "--flowers", "HAND"],
    "replay": ["FILE", "--seat", "--html"],
    "view": ["FILE", "--out", "--seat", "--index", "--title", "--play4", "--rules", "--episode",
             "--seed", "--top", "--save-record"],
    "play": ["--seat", "--opponents", "--rules", "--episode", "--seed", "--codes", "--save"],
    "arena": ["--agents", "--mode", "--deals", "--seed", "--rules", "--episode", "--rotations",
              "--out", "--workers", "--backend", "--records", "--no-progress"],
    "botzone-bot": ["--agent", "--keep-running", "--encoder", "--seed", "--zip"],
    "botzone-log": ["DIRECTION", "FILE", "OUT", "--force"],
    "configs": ["--show"],
    "bench": ["--sizes", "--encoder", "--dtype", "--workers", "--pin", "--rules", "--decisions",
              "--rounds", "--seed", "--json", "--no-progress"],
    "train": ["--config", "--out", "--no-progress", "OVERRIDE"],
}
SWITCHES = {"--jsonl", "--self-drawn", "--last-copy", "--last-tile", "--kong-win", "--index",
            "--codes", "--no-progress", "--keep-running", "--force"}
SMALL = {"--deals": ["-1", "0", "1", "2", "x", ""], "--workers": ["-1", "0", "1", "x", ""],
         "--backend": ["process", "x", ""], "--rotations": ["cyclic", "x"],
         "--episode": ["hand", "x", "match"], "--sizes": ["1", "2", "0", "x", "", "1,2", "1,,2"],
         "--decisions": ["1", "0", "x", "-1"], "--rounds": ["1", "0", "x"],
         "--dtype": ["float32", "uint8", "x"], "--pin": ["auto", "on", "off", "x"]}
"""Options whose values stay small: a run must stay short (no thousand deals, no Ray, no
thousand workers) while still meeting bad values."""


def random_argv(rng: random.Random, work: Path, out: Callable[[str], Path]) -> list[str]:
    """A random command line: a command (sometimes none, or an unknown one) and a random
    selection of its options with values from :data:`VALUES`, files of ``work`` and new
    output paths."""
    if rng.random() < 0.03:  # (not []: a bare mjenv prints its whole help, status 2)
        return rng.choice([["--version"], ["nope"], ["--help"], ["-x"]])
    command = rng.choice(list(COMMANDS))
    argv = [command]
    for _ in range(rng.randint(0, 5)):
        option = rng.choice(COMMANDS[command])
        if option in SWITCHES:
            argv.append(option)
        elif option in ("HAND", "OVERRIDE"):
            argv.append(rng.choice(VALUES + ["bc.hands=x", "ppo.updates=1", "k=v"]))
        elif option == "FILE":
            argv.append(str(rng.choice([work / "argv-record.json", work / "argv-log.json",
                                        work / "missing.json", work])))
        elif option == "OUT":
            argv.append(str(out(".json")))
        elif option == "DIRECTION":
            argv.append(rng.choice(["to-record", "from-record", "x"]))
        elif option == "--play4":
            argv += ["--play", *(rng.choice(["random", "greedy", "x:y", "random seed=-1"])
                                 for _ in range(rng.choice([4, 4, 4, 3])))]
        elif option in ("--out", "--html", "--save", "--zip", "--save-record", "--json"):
            argv += [option, str(out(".out") if rng.random() < 0.8 else work / "x" / "y")]
        elif option in SMALL:
            argv += [option, rng.choice(SMALL[option])]
        elif option == "--agents":
            argv += [option, *(rng.choice(["random", "greedy", "random seed=1", "x"])
                               for _ in range(rng.choice([1, 2, 2, 4, 5])))]
        else:
            argv += [option, rng.choice(VALUES)]
    if command == "arena" and "--deals" not in argv:
        argv += ["--deals", "1"]  # the default is 100 deals: too long for one input
    if command == "bench":  # its defaults time 1,024 games three times: seconds an input
        for option, value in (("--sizes", "1"), ("--decisions", "1"), ("--rounds", "1")):
            if option not in argv:
                argv += [option, value]
    return argv


# ---------------------------------------------------------------------- the environment
ODD_ACTIONS: list[Any] = [None, True, False, -1, 235, 10 ** 20, 1.5, "3", [1], (1,), {}, math.nan]
ODD_OPTIONS: list[Any] = [None, {}, "wall", 3, [], {"wall": "x"}, {"wall": [1, 2, 3]},
                          {"wall": None}, {"dealer": 4}, {"dealer": -1}, {"dealer": True},
                          {"dealer": "0"}, {"prevalent_wind": 7}, {"prevalent_wind": 1.0},
                          {"unknown": 1}, {"wall": ["W1"] * 144}, {"dealer": 2 ** 70}]


def env_episode(rng: random.Random, calls: list[str]) -> None:
    """One episode of a random env with odd resets and actions mixed with legal ones; every
    call is logged in ``calls`` before it is made. Only ValueError may come out."""
    import numpy as np

    import mjenv

    kind = rng.choice(["raw", "wrapped", "single"])
    rules = rng.choice(["mcr", "botzone"])
    if kind == "single":
        from mjenv.single_agent import SingleAgentEnv

        calls.append(f"SingleAgentEnv(rules={rules!r})")
        env: Any = SingleAgentEnv(rules=rules)
    else:
        calls.append(f"mjenv.{'raw_env' if kind == 'raw' else 'env'}(rules={rules!r})")
        env = (mjenv.raw_env if kind == "raw" else mjenv.env)(rules=rules)
    if rng.random() < 0.2:  # out of order: a step before any reset
        action = rng.choice(ODD_ACTIONS + [0])
        calls.append(f"step({action!r}) before reset")
        with contextlib.suppress(ValueError):
            env.step(action)
    seed = rng.choice([None, 0, 1, 2 ** 32, 2 ** 70, -1])
    options = copy.deepcopy(rng.choice(ODD_OPTIONS)) if rng.random() < 0.5 else None
    if isinstance(options, dict) and options.get("wall") == ["W1"] * 144:  # a real wall
        from mjenv.engine import Game
        from mjenv.tiles import CODES

        tiles = [CODES[t] for t in Game(env_rules(rules), seed=rng.randrange(99)).wall.tiles]
        options["wall"] = rng.choice([tiles, tiles[:-1], tiles + tiles[:1], tiles[::-1]])
    calls.append(f"reset(seed={seed!r}, options={_short(options)})")
    try:
        env.reset(seed=seed, options=options)
    except ValueError:  # refused: the env is not reset, and says so on the next call
        action = rng.choice(ODD_ACTIONS + [0])
        calls.append(f"step({action!r}) after a refused reset")
        with contextlib.suppress(ValueError):
            env.step(action)
        return
    for _ in range(rng.randint(1, 60)):
        if kind == "single":
            try:
                legal = np.flatnonzero(env.action_masks())
            except ValueError:  # not reset (a refused reset)
                legal = np.array([0])
        else:
            if not env.agents:
                break
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                calls.append("step(None)")
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
        if len(legal) == 0:
            raise AssertionError("an agent to act with no legal action")
        odd = rng.random() < 0.3
        if odd:
            action = rng.choice(ODD_ACTIONS + [np.int8(int(legal[0])), np.int64(-3),
                                               np.array(int(legal[0])), np.array([1, 2]),
                                               np.float32(1)])
        else:
            action = int(rng.choice(list(legal)))
        calls.append(f"step({action!r})")
        if kind == "single":
            try:
                _, _, done, truncated, _ = env.step(action)
            except ValueError:
                if not odd:
                    raise
                continue
            if done or truncated:
                break
        else:
            try:
                env.step(action)
            except ValueError:
                if not odd or kind != "raw":
                    raise
        if kind != "single" and rng.random() < 0.05:
            calls.append("state()")
            with contextlib.suppress(NotImplementedError):
                env.state()


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 120 else text[:100] + f"... ({len(text)} characters)"


def env_rules(name: str) -> Any:
    from mjenv.engine import BOTZONE, MCR

    return BOTZONE if name == "botzone" else MCR


# ====================================================================== the job
WEIGHTS = {"jsonl": 1.0, "replay": 1.0, "view": 0.6, "botzone-log": 1.0, "botzone-bot": 1.0,
           "train-config": 0.8, "agent-spec": 1.0, "checkpoint": 1.0, "argv": 1.6, "env": 1.0}


def fuzz(names: list[str], seconds: float, seed: int, work: Path, failures: Path,
         ) -> list[Tally]:
    """Each entry point of ``names`` for its share of ``seconds``."""
    start = time.monotonic()
    seeds = Seeds.make()
    fuzzer = Fuzzer(work, failures, seeds)
    left = seconds - (time.monotonic() - start)
    total = sum(WEIGHTS[n] for n in names)
    tallies = []
    for name in names:
        tally = Tally(name)
        tallies.append(tally)
        method = getattr(fuzzer, "fuzz_" + name.replace("-", "_"))
        if name == "checkpoint" or name == "train-config":
            try:
                __import__("torch")
            except ImportError:
                print(f"{name}: skipped (no torch: pip install 'mjenv[train]')", file=sys.stderr)
                continue
        rng = random.Random(f"{seed}-{name}")
        began = time.monotonic()
        budget = left * WEIGHTS[name] / total
        while time.monotonic() - began < budget:
            failure, data, suffix = method(rng)
            tally.inputs += 1
            if failure is not None:
                tally.failures += 1
                key = failure_key(failure)
                if key not in tally.distinct:
                    kept = failures / f"{name}-{len(tally.distinct) + 1}{suffix}"
                    kept.write_bytes(data)
                    tally.distinct[key] = str(kept)
                    print(f"{name}: FAILURE {failure[:300]} (input: {kept})", file=sys.stderr)
            _clean(work)
        tally.seconds = time.monotonic() - began
    return tallies


def failure_key(failure: str) -> str:
    """What tells failures apart: the reason without the values in it (numbers, quoted text)
    and without the calls that led to it (``after ...``)."""
    failure = failure.split(" after ", 1)[0]
    if " at " in failure:  # an escaped exception: its type and where it was raised
        kind = failure.split(":", 2)[1].strip() if failure.count(":") >= 2 else failure
        failure = kind + " at " + failure.rsplit(" at ", 1)[1]
    return re.sub(r"'[^']*'|\"[^\"]*\"|0x[0-9a-f]+|\d+", "_", failure)[:200]


def _clean(work: Path) -> None:
    """Drop what the last input wrote (the seeds stay)."""
    for entry in work.iterdir():
        if entry.name.startswith(("input-", "out-")):
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


def table(tallies: list[Tally], seconds: float) -> str:
    lines = [f"{'entry point':<14} {'inputs':>8} {'failures':>9} {'distinct':>9} "
             f"{'seconds':>8}"]
    for t in tallies:
        lines.append(f"{t.name:<14} {t.inputs:>8} {t.failures:>9} {len(t.distinct):>9} "
                     f"{t.seconds:>8.1f}")
    lines.append(f"{'total':<14} {sum(t.inputs for t in tallies):>8} "
                 f"{sum(t.failures for t in tallies):>9} "
                 f"{sum(len(t.distinct) for t in tallies):>9} {seconds:>8.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--seconds", type=float,
                        default=float(os.environ.get("MJENV_FUZZ_SECONDS", DEFAULT_SECONDS)),
                        help="the whole job's time (also MJENV_FUZZ_SECONDS)")
    parser.add_argument("--seed", type=int, default=0, help="the random stream's seed")
    parser.add_argument("--only", nargs="+", choices=list(WEIGHTS), default=list(WEIGHTS),
                        metavar="NAME", help=f"entry points to fuzz: {', '.join(WEIGHTS)}")
    parser.add_argument("--json", type=Path, default=ROOT / "runs" / "fuzz" / "report.json",
                        help="where to write the table as JSON")
    parser.add_argument("--failures", type=Path, default=ROOT / "runs" / "fuzz" / "failures",
                        help="a folder for the input of each distinct failure")
    args = parser.parse_args(argv)
    from mjenv.procs import one_thread_env

    one_thread_env()  # torch (checkpoints, the policy) on one thread, as the commands run it
    args.failures.mkdir(parents=True, exist_ok=True)
    for old in args.failures.iterdir():
        if old.is_file():
            old.unlink()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mjenv-fuzz-") as tmp:
        tallies = fuzz(args.only, args.seconds, args.seed, Path(tmp), args.failures)
    elapsed = time.monotonic() - start
    print(table(tallies, elapsed))
    report = {"seconds": round(elapsed, 1), "seed": args.seed,
              "entry_points": [{"name": t.name, "inputs": t.inputs, "failures": t.failures,
                                "seconds": round(t.seconds, 1), "distinct": t.distinct}
                               for t in tallies]}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    print(f"report: {args.json}")
    return 1 if any(t.failures for t in tallies) else 0


if __name__ == "__main__":
    raise SystemExit(main())
