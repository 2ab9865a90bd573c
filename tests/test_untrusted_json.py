"""Untrusted JSON cannot stop a reader (issue 14): a line of a thousand ``[`` or a 50 MB line
gets an error answer and the JSON Lines stream goes on, without the line ever held whole; the
same nesting in a record or a Botzone log is one line on stderr and exit status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mjenv.cli import main
from mjenv.fans.jsonl import Oversized, read_lines, serve
from mjenv.inputs import MAX_JSON_DEPTH, MAX_LINE_BYTES, JSONInputError, parse_json

ROOT = Path(__file__).resolve().parents[1]
VALID = {"hand": ["W1", "W1", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W9", "W9"],
         "win_tile": "W5", "self_drawn": True}
DEEP = "[" * 1000
"""What raised RecursionError in json.loads: 1,000 nested arrays (2 kB)."""
HUGE = 50_000_000
"""The size of the huge line: 50 MB, fifty times the default limit."""


# ------------------------------------------------------------------ the parser
@pytest.mark.parametrize(("text", "message"), [
    (DEEP, "nested deeper than 64 levels"),
    ('{"a": ' * 2000 + "1" + "}" * 2000, "nested deeper than 64 levels"),
    ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "nested deeper than 64"),
    ("1" * 5000, "digits"),  # int's conversion limit: a ValueError, not a JSONDecodeError
    (b"\xff\xfe\x00", "decode"),
    ("{", "Expecting property name"),
])
def test_parse_json_refuses_in_one_error(text: str | bytes, message: str) -> None:
    with pytest.raises(JSONInputError, match=message) as raised:
        parse_json(text)
    assert isinstance(raised.value, ValueError)
    assert "\n" not in str(raised.value)


def test_parse_json_takes_the_nesting_of_our_formats() -> None:
    nested = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert parse_json(nested) is not None
    assert parse_json('{"a": [{"b": [1, 2.5, null, true, "x"]}]}') == {
        "a": [{"b": [1, 2.5, None, True, "x"]}]}


# ------------------------------------------------------------------ the JSON Lines stream
def answers_of(data: bytes, limit: int = MAX_LINE_BYTES) -> list[dict[str, object]]:
    out = io.StringIO()
    serve(read_lines(io.BytesIO(data), limit), out, limit)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_stream_answers_a_deep_line_and_goes_on() -> None:
    first, second = answers_of(f"{DEEP}\n{json.dumps(VALID)}\n".encode())
    assert first["error"] == "invalid" and "nested deeper" in str(first["message"])
    assert second["total"] == 92


def test_the_limit_counts_the_bytes_before_the_newline() -> None:
    line = json.dumps(VALID).encode()
    limit = len(line)
    exact, over, after, last = answers_of(
        line + b"\n" + line + b" \n" + line + b"\n" + line, limit)  # the last: no newline
    assert exact["total"] == 92 and after["total"] == 92 and last["total"] == 92
    assert over["error"] == "invalid" and f"longer than {limit} bytes" in str(over["message"])
    assert "--max-line-bytes" in str(over["message"])


def test_an_oversized_line_is_dropped_in_chunks_never_held_whole() -> None:
    class Recording(io.BytesIO):
        """Remembers the longest piece handed out."""

        longest = 0

        def readline(self, size: int | None = -1) -> bytes:
            piece = super().readline(size)
            self.longest = max(self.longest, len(piece))
            return piece

    stream = Recording(b"x" * 1_000_000 + b"\n" + json.dumps(VALID).encode() + b"\n")
    lines = list(read_lines(stream, 1000))
    assert lines[0] == Oversized(1000)
    assert isinstance(lines[1], bytes) and json.loads(lines[1]) == VALID
    assert stream.longest <= 1 << 16


def test_text_lines_in_process_obey_the_limit_too() -> None:
    out = io.StringIO()
    serve(["é" * 600, json.dumps(VALID)], out, 1000)  # 600 characters, 1,200 bytes
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert "longer than 1000 bytes" in first["message"] and second["total"] == 92


def test_an_answer_quoting_a_lone_surrogate_is_still_one_utf8_line() -> None:
    request = '{"hand": [], "win_tile": "W1", "\\ud800": 1}'
    done = subprocess.run([sys.executable, "-m", "mjenv.fans"], cwd=ROOT, capture_output=True,
                          input=f"{request}\n{json.dumps(VALID)}\n".encode(), timeout=120)
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.decode("utf-8").splitlines())
    assert "unknown field(s): \ud800" in first["message"]
    assert second["total"] == 92


PEAK = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
raise SystemExit(done.returncode)
"""
"""Runs the command given and prints its peak memory (kB) on stderr: a fresh process, so the
peak is that of this one child."""


@pytest.mark.parametrize("command", [["-m", "mjenv.fans"], ["-m", "mjenv", "fan", "--jsonl"]])
def test_acceptance_deep_huge_then_valid(command: list[str]) -> None:
    """Issue 14's acceptance: a deeply nested line, a huge line and a valid request give two
    error answers and the valid answer, exit 0, in bounded memory (the whole 50 MB line would
    take about 1 GB decoded and parsed)."""
    stdin = b"".join([DEEP.encode(), b"\n", b'{"hand": "', b"x" * HUGE, b'"}\n',
                      json.dumps(VALID).encode(), b"\n"])
    done = subprocess.run([sys.executable, "-c", PEAK, sys.executable, *command], cwd=ROOT,
                          input=stdin, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    deep, huge, valid = (json.loads(line) for line in done.stdout.splitlines())
    assert deep["error"] == "invalid" and "nested deeper" in deep["message"]
    assert huge["error"] == "invalid" and "longer than 1048576 bytes" in huge["message"]
    assert valid["total"] == 92
    *_, peak = done.stderr.decode().split()
    assert int(peak) < 200_000, f"peak memory {peak} kB"  # the interpreter and numpy: ~60 MB


def test_the_limit_is_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    line = json.dumps(VALID)
    for command in (["-m", "mjenv.fans"], ["-m", "mjenv", "fan", "--jsonl"]):
        done = subprocess.run([sys.executable, *command, "--max-line-bytes", "100"], cwd=ROOT,
                              input=f"{line}\n{line[:99]}\n", capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        over, short = (json.loads(x) for x in done.stdout.splitlines())
        assert "longer than 100 bytes" in over["message"]
        assert "not valid JSON" in short["message"]
        done = subprocess.run([sys.executable, *command, "--max-line-bytes", "4k"], cwd=ROOT,
                              input=f"{line}\n", capture_output=True, text=True, timeout=120)
        assert json.loads(done.stdout)["total"] == 92
    for value in ("0", "x", "2048M", "99999999999999999999"):  # the last overflowed readline
        with pytest.raises(SystemExit) as exit_:
            main(["fan", "--jsonl", "--max-line-bytes", value])
        assert exit_.value.code == 2
        assert "a number of bytes from 1 to 1024M" in capsys.readouterr().err


def test_the_limit_without_jsonl_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fan", "1112345678999m", "--win", "5m", "--max-line-bytes", "10"]) == 2
    assert capsys.readouterr().err == ("mjenv fan: error: --max-line-bytes is the request size "
                                       "limit of --jsonl; give both\n")


# ------------------------------------------------------------------ records and logs
@pytest.fixture
def deep_file(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text('{"format": ' + DEEP + "\n")
    return path


@pytest.mark.parametrize("args", [
    ["replay", "{file}"], ["replay", "{file}", "--html", "{out}"],
    ["view", "{file}", "--out", "{out}"],
    ["botzone-log", "to-record", "{file}", "{out}"],
    ["botzone-log", "from-record", "{file}", "{out}"],
])
def test_a_deep_record_or_log_is_one_line_and_status_2(
        args: list[str], deep_file: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.html"
    argv = [a.format(file=deep_file, out=out) for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mjenv {argv[0]}: error: ") and err.count("\n") == 1, err
    assert "nested deeper than 64 levels" in err
    assert not out.exists()


def test_a_deep_initdata_string_in_a_log_is_one_line(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.json"
    finish = {"command": "finish", "content": {str(s): 0 for s in range(4)}}
    log.write_text(json.dumps({"initdata": DEEP, "log": [{"output": finish}]}))
    assert main(["botzone-log", "to-record", str(log), str(tmp_path / "hand.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "initdata: not JSON: nested deeper" in err, err


def test_a_folder_with_a_deep_file_is_skipped_by_view(tmp_path: Path, deep_file: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["view", str(tmp_path), "--out", str(tmp_path / "index.html")]) == 2
    err = capsys.readouterr().err
    assert f"skipping {deep_file}: not a hand or match record" in err
    assert err.endswith(f"mjenv view: error: no hand or match records in {tmp_path}\n")


@pytest.mark.parametrize("keep_running", [False, True])
def test_deep_json_to_a_bot_is_one_line_and_status_2(keep_running: bool) -> None:
    line = '{"requests": ' + DEEP + "]" * 1000 + ', "responses": []}\n'
    done = subprocess.run([sys.executable, "-m", "mjenv", "botzone-bot", "--agent", "random",
                           *(["--keep-running"] if keep_running else [])], cwd=ROOT,
                          input=line, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "nested deeper than 64 levels" in done.stderr


@pytest.mark.parametrize("command", [["replay"], ["botzone-log", "to-record"]])
def test_acceptance_a_deep_file_as_a_process_is_one_line_and_status_2(
        command: list[str], deep_file: Path, tmp_path: Path) -> None:
    """Issue 14's acceptance for ``mjenv replay`` and ``mjenv botzone-log``, as a user runs
    them (the console script's exit status)."""
    out = [str(tmp_path / "hand.json")] if command[0] == "botzone-log" else []
    done = subprocess.run([sys.executable, "-m", "mjenv", *command, str(deep_file), *out],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"mjenv {command[0]}: error: ")
    assert "nested deeper than 64 levels" in done.stderr and done.stdout == ""
