"""How mjenv talks to a bot program (mjenv.botzone.process), against bots that do their I/O the
way real Botzone bots do: the C++ sample's stand-in (``bots/cpp_sample.py``: it reads its input
to end of file and pretty-prints its JSON answer over several lines), and small inline programs
that misbehave in one way each."""

from __future__ import annotations

import csv
import json
import os
import sys
import time
from pathlib import Path

import pytest

from mjenv.arena.config import ArenaConfig
from mjenv.arena.play import play_task
from mjenv.botzone.process import BotFailure, BotProcess, json_value_end
from mjenv.cli import main as cli_main

SAMPLE = Path(__file__).resolve().parent / "bots" / "cpp_sample.py"
PY = [sys.executable, "-S"]  # the test bots need only the standard library: a faster start
DEAL = "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4"
TURNS = ["0 1 0", DEAL, "2 B1", "3 0 PLAY B1", "3 1 DRAW", "2 B2"]


def sample(*flags: str) -> str:
    return " ".join([*PY, str(SAMPLE), *flags])


def inline(code: str) -> list[str]:
    """A bot program given as Python source."""
    return [*PY, "-c", code]


def answers_are_legal(answers: list[str]) -> bool:
    """The sample's answers to TURNS: PASS, except a discard of a tile it holds after a draw."""
    held = DEAL.split()[5:]
    for request, answer in zip(TURNS, answers, strict=True):
        if request.startswith("2 "):
            held.append(request.split()[1])
            if not answer.startswith("PLAY ") or answer.split()[1] not in held:
                return False
            held.remove(answer.split()[1])
        elif answer != "PASS":
            return False
    return True


# ---------------------------------------------------------------- reading a JSON answer whole
@pytest.mark.parametrize(("data", "end"), [
    (b'{"response": "PASS"}\n', 20),
    (b'{\n\t"response" : "PASS"\n}\n', 24),   # jsoncpp's pretty print
    (b'  \n{"a": "}{\\"", "b": [1, {}]} tail', 30),  # braces and quotes inside strings
    (b'"PASS"\n', 6),
    (b"PLAY W1\n", 7),                           # no JSON at all: one line
    (b"17\nmore", 2),
])
def test_a_json_value_ends_where_it_closes(data: bytes, end: int) -> None:
    assert json_value_end(data) == end


@pytest.mark.parametrize("data", [b"", b"  \n", b"{", b'{\n\t"response" : "PA', b'{"a": "}',
                                  b'"abc\\"', b"PLAY W1"])
def test_an_incomplete_json_value_has_no_end(data: bytes) -> None:
    assert json_value_end(data) is None


# ---------------------------------------------------------------- fresh processes, end of file
def test_a_fresh_process_gets_end_of_file_and_its_answer_is_read_whole() -> None:
    """The sample reads to end of file and answers over three lines: each turn is answered
    at once (before, it waited out the first-turn limit and its answer was read as ``{``)."""
    process = BotProcess(sample(), io="json", first_time_limit=10)
    answers = []
    for request in TURNS:
        started = time.monotonic()
        answers.append(process.ask(request))
        assert time.monotonic() - started < 5 and process._proc is None
    assert answers_are_legal(answers), answers


def test_a_kept_running_program_answers_multi_line_json() -> None:
    process = BotProcess(sample("--keep-running"), io="json", keep_running=True)
    answers = [process.ask(TURNS[0])]
    proc = process._proc
    assert proc is not None and proc.poll() is None
    answers += [process.ask(request) for request in TURNS[1:]]
    assert process._proc is proc  # one process for the whole game
    assert answers_are_legal(answers), answers
    process.close()
    assert proc.poll() is not None


@pytest.mark.parametrize("keep", [False, True])
def test_simple_io_one_line(keep: bool) -> None:
    flags = ["--simple", *(["--keep-running"] if keep else [])]
    process = BotProcess(sample(*flags), keep_running=keep)
    assert answers_are_legal([process.ask(request) for request in TURNS])
    process.close()


def test_a_big_input_is_written_while_the_answer_is_read() -> None:
    """More input than a pipe holds: written as the program reads, never blocking mjenv."""
    reader = inline("import json, sys\n"
                    "d = json.loads(sys.stdin.read())\n"
                    "print(json.dumps({'response': str(len(d['requests'][-1]))}))")
    big = "3 0 PLAY " + "W1 " * 100_000
    assert BotProcess(reader, io="json").ask(big) == str(len(big))
    deaf = inline("print('PASS', flush=True)\nimport time\ntime.sleep(30)")  # never reads
    process = BotProcess(deaf, keep_running=False)
    started = time.monotonic()
    assert process.ask(big) == "PASS" and time.monotonic() - started < 5


def test_saved_data_comes_back_in_the_next_history() -> None:
    counter = inline("import json, sys\n"
                     "d = json.loads(sys.stdin.read())\n"
                     "n = int(d.get('data') or 0) + 1\n"
                     "print(json.dumps({'response': str(n), 'data': str(n), "
                     "'globaldata': 'g'}, indent=1))")
    process = BotProcess(counter, io="json")
    assert [process.ask(r) for r in TURNS[:3]] == ["1", "2", "3"]
    assert process.globaldata == "g"


# ---------------------------------------------------------------- errors that say what to do
@pytest.mark.parametrize(("command", "io", "verdict", "says"), [
    # a JSON bot run with io=simple: it cannot read the simple input, and says so on stderr
    (sample(), "simple", "RE", "it needs io=json"),
    # a bot that answers JSON whatever it is given, with io=simple
    (inline("import sys\nsys.stdin.read()\nprint('{\\n \"response\": \"PASS\"\\n}')"),
     "simple", "WA", "needs io=json"),
    # a simple-I/O bot (one plain line) with io=json
    (inline("import sys\nsys.stdin.read()\nprint('PASS')"), "json", "NJ", "needs io=simple"),
    (inline("print('{\"response\": 3}')"), "json", "NJ", 'a "response" string'),
    (inline("print('{\"response\":', flush=True)"), "json", "NJ", "incomplete JSON value"),
])
def test_the_wrong_io_is_named(command: list[str] | str, io: str, verdict: str,
                               says: str) -> None:
    with pytest.raises(BotFailure) as failure:
        BotProcess(command, io=io).ask("0 1 0")
    assert failure.value.verdict == verdict and says in str(failure.value), failure.value


def test_a_tle_states_the_limit_that_applied() -> None:
    # a bot that reads to end of file, run as keep-running: its input never ends
    process = BotProcess(sample(), io="json", keep_running=True, time_limit=0.2,
                         first_time_limit=0.6)
    started = time.monotonic()
    with pytest.raises(BotFailure, match=r"TLE: no answer within 0.6 s \(first_time_limit") \
            as failure:
        process.ask("0 1 0")
    assert 0.6 <= time.monotonic() - started < 3
    assert "needs keep_running=False" in str(failure.value)
    assert process._proc is None  # killed
    # a kept-running bot that hangs on its second turn: the later turns' limit
    hang = inline("import sys, time\n"
                  "sys.stdin.readline(); sys.stdin.readline()\n"
                  "print('PASS\\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<', flush=True)\n"
                  "sys.stdin.readline(); print('PA', end='', flush=True); time.sleep(30)")
    process = BotProcess(hang, keep_running=True, time_limit=0.3, first_time_limit=5)
    assert process.ask("0 1 0") == "PASS"
    with pytest.raises(BotFailure, match=r"within 0.3 s \(time_limit: a later turn") as failure:
        process.ask(DEAL)
    assert "it printed 'PA', not a whole answer" in str(failure.value)
    # a fresh process: every turn starts it
    with pytest.raises(BotFailure, match=r"within 0.4 s \(first_time_limit: a fresh-process"):
        BotProcess(inline("import time\ntime.sleep(30)"), first_time_limit=0.4).ask("0 1 0")


def test_a_keep_running_bot_without_the_marker_is_started_again() -> None:
    once = BotProcess(sample("--simple"), keep_running=True)  # answers, then exits: no marker
    assert [once.ask(r) for r in TURNS[:2]] == ["PASS", "PASS"] and once._proc is None


# ---------------------------------------------------------------- in the arena
def rows_of(spec: str, seatings: int) -> list[dict[str, object]]:
    config = ArenaConfig(agents=(spec, "random"), rules="botzone", deals=1)
    rows: list[dict[str, object]] = []
    for task in config.tasks()[:seatings]:
        rows.extend(play_task(config, task))
    return rows


@pytest.mark.parametrize(("spec", "seatings"), [
    (f'botzone:"{sample()}" io=json', 1),                     # fresh: ~150 starts a hand
    (f'botzone:"{sample("--keep-running")}" io=json keep_running=True', 4),
    (f'botzone:"{sample("--simple", "--keep-running")}" keep_running=True', 4),
], ids=["fresh-json", "keep-json", "keep-simple"])
def test_the_cpp_sample_plays_the_arena(spec: str, seatings: int) -> None:
    rows = rows_of(spec, seatings)
    assert len(rows) == 4 * seatings
    assert not any(r["error"] or r["penalized"] for r in rows), [r["error"] for r in rows]


@pytest.mark.acceptance
@pytest.mark.slow
@pytest.mark.parametrize(("options", "flags"), [("", ""), ("keep_running=True", " --keep-running")],
                         ids=["fresh", "keep-running"])
def test_acceptance_the_cpp_sample_plays_20_deals(tmp_path: Path, options: str,
                                                  flags: str) -> None:
    """``mjenv arena --rules botzone --agents 'botzone:"python cpp_sample.py" io=json' random
    --deals 20``: 80 hands, no penalty (fresh processes: ~13,000 starts, minutes)."""
    spec = f'botzone:"{sample()}{flags}" io=json {options}'.strip()
    started = time.monotonic()
    status = cli_main(["arena", "--rules", "botzone", "--agents", spec, "random", "--deals",
                       "20", "--out", str(tmp_path / "run"), "--no-progress",
                       "--workers", str(min(4, os.cpu_count() or 1))])
    assert status == 0
    with (tmp_path / "run" / "hands.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 20 * 4 * 4
    bad = [r for r in rows if r["penalized"] not in ("", "0", "False") or r["error"]]
    assert not bad, bad[:3]
    print(json.dumps({"mode": flags.strip() or "fresh", "hands": len(rows) // 4,
                      "seconds": round(time.monotonic() - started, 1)}))
