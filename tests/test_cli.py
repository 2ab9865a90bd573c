"""The ``mjenv`` command line: --version, ``mjenv fan`` tables and errors, the JSON Lines stream.

Hands come from the worked examples of the rules (docs/rules.md §5).
"""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from mjenv import __version__
from mjenv.cli import main

ROOT = Path(__file__).resolve().parents[1]


def codes(text: str) -> list[str]:
    return text.split()


# E4 nine gates, self-drawn: 九莲宝灯 88 + 双暗刻 2 + 幺九刻 1 + 自摸 1 = 92
E4 = {"hand": codes("W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9"), "win_tile": "W5",
      "self_drawn": True}
E4_FANS = [("九莲宝灯", 88, 1), ("双暗刻", 2, 1), ("幺九刻", 1, 1), ("自摸", 1, 1)]
# E1 big four winds: a melded pung of F4 from the previous player; 111 points
E1 = {"hand": codes("F1 F1 F1 F2 F2 F2 F3 F3 F3 W5"), "win_tile": "W5",
      "melds": [{"type": "pung", "tiles": ["F4", "F4", "F4"], "claimed": "F4", "from": 3}]}
# E70: 混一色 6 + 幺九刻 1 + 花牌 1x3 = 10, but 7 without flowers: not a legal win
E70 = {"hand": codes("B3 B4 B5 B7 B7 B7 F3 F3 J3 J3"), "win_tile": "F3", "flowers": 3,
       "melds": [{"type": "chow", "tiles": ["B1", "B2", "B3"], "claimed": "B1", "from": 3}]}
# E17: three kongs, won on the kong replacement: 三杠 32 + 杠上开花 8 = 40
E17 = {"hand": codes("B3 B4 J2 J2"), "win_tile": "B5", "self_drawn": True, "kong_win": True,
       "melds": [{"type": "kong", "tiles": ["W5"] * 4, "claimed": "W5", "from": 3},
                 {"type": "kong", "tiles": ["B7"] * 4, "claimed": "B7", "from": 2},
                 {"type": "concealed_kong", "tiles": ["T2"] * 4, "claimed": None, "from": None}]}
NOT_WIN = {"hand": codes("W1 W2 W4 W5 W7 W8 T1 T3 T5 B2 B4 B6 B8"), "win_tile": "F1"}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m ...`` in a child process, in the repository root."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, input=stdin, text=True,
                          capture_output=True, timeout=120, env=env, encoding="utf-8")


def fans_of(answer: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [(f["zh"], f["points"], f["count"]) for f in answer["fans"]]


# ------------------------------------------------------------------ mjenv --version / help


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == "mjenv 0.2.0"
    assert __version__ == "0.2.0"


def test_version_in_a_process_and_package_metadata() -> None:
    done = run("mjenv", "--version")
    assert (done.returncode, done.stdout.strip()) == (0, "mjenv 0.2.0")


def test_console_script_is_declared() -> None:
    """Needs the project installed (make test does ``pip install -e``)."""
    scripts = {ep.name: ep.value for ep in metadata.entry_points(group="console_scripts")}
    assert scripts.get("mjenv") == "mjenv.cli:main"
    assert metadata.version("mjenv") == __version__


def test_lazy_calculate_alias() -> None:
    import mjenv
    from mjenv.fans import calculate

    assert mjenv.calculate is calculate
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = mjenv.nothing  # type: ignore[attr-defined]


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "fan" in capsys.readouterr().err


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["deal"])
    assert exit_info.value.code == 2


# ------------------------------------------------------------------ mjenv fan (table)


def test_fan_table_nine_gates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fan", "1112345678999m", "--win", "5m", "--self-drawn"]) == 0
    out = capsys.readouterr().out
    for zh, points, count in E4_FANS:
        line = next(line for line in out.splitlines() if line.startswith(zh))
        assert line.split()[-3:] == [str(points), str(count), str(points * count)]
    assert "Nine Gates" in out
    assert out.splitlines()[[i for i, line in enumerate(out.splitlines())
                             if line.startswith("total")][0]].split()[-1] == "92"
    assert "8-point minimum: met" in out
    assert "decomposition (regular)" in out
    assert "🀇" in out  # glyphs next to the compact notation


def test_fan_last_tile_listed_is_the_winning_tile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fan", "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9 W5", "--self-drawn"]) == 0
    with_win = capsys.readouterr().out
    assert main(["fan", "1112345678999m", "--win", "W5", "--self-drawn"]) == 0
    assert capsys.readouterr().out == with_win


def test_fan_melds_flowers_and_the_minimum(capsys: pytest.CaptureFixture[str]) -> None:
    # E70 as command-line options: 10 points, 7 without flowers: not a legal win
    assert main(["fan", "345777p3355z", "--chow", "123p", "--win", "3z", "--flowers", "3"]) == 0
    out = capsys.readouterr().out
    assert "花牌" in out and "Flower Tiles" in out
    assert "NOT met (7 points without flowers)" in out
    assert "melds    chow 123p" in out


def test_fan_kongs_and_winds(capsys: pytest.CaptureFixture[str]) -> None:
    # E17 (40) via --kong / --concealed-kong, and E11 (91) with seat wind South
    assert main(["fan", "34p66z", "--kong", "5m", "--kong", "7777p", "--concealed-kong", "2s",
                 "--win", "5p", "--self-drawn", "--kong-win"]) == 0
    out = capsys.readouterr().out
    assert "三杠" in out and "杠上开花" in out
    assert [line for line in out.splitlines() if line.startswith("total")][0].split()[-1] == "40"
    assert main(["fan", "F2 F2 F2 J1 J1 J1 J2 F4 F4 J2", "--pung", "1z", "--win", "J2",
                 "--self-drawn", "--seat-wind", "S", "--prevalent-wind", "east"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("total")][0].split()[-1] == "91"
    assert "seat wind S, prevalent wind E" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["123x"], "not a tile: '123x'"),
        (["1112345678999m", "--win", "5q"], "not a tile: '5q'"),
        (["1112345678999m", "--win", "55m"], "--win takes one tile"),
        (["1112345678999m"], "13 tiles given without --win"),
        (["123456789m1234p", "--win", "5p"], "not a winning hand"),
        (["1112345678999m", "--win", "5m", "--kong-win", "--self-drawn"], "needs a kong"),
        (["1112345678999m", "--win", "5m", "--flowers", "9"], "flower"),
        (["12345678999m", "--chow", "124m", "--win", "5m"], "--chow '124m'"),
        (["12345678999m", "--pung", "12m", "--win", "5m"], "--pung '12m': a pung has 3 tiles"),
        ([], "give a hand"),
        (["1112345678999m", "--jsonl"], "do not give HAND"),
    ],
)
def test_fan_errors_are_one_line_with_status_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fan", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("mjenv fan: error: ")
    assert captured.err.count("\n") == 1
    assert message in captured.err


def test_bad_wind_is_a_usage_error() -> None:
    done = run("mjenv", "fan", "1112345678999m5m", "--seat-wind", "X")
    assert done.returncode == 2
    assert "invalid wind 'X'" in done.stderr
    assert "Traceback" not in done.stderr


def test_errors_in_a_process_have_no_traceback() -> None:
    done = run("mjenv", "fan", "123456789m1234p5p")
    assert done.returncode == 2
    assert done.stderr.startswith("mjenv fan: error: not a winning hand")
    assert "Traceback" not in done.stderr


# ------------------------------------------------------------------ the JSON Lines stream


def serve_in_process(lines: list[str]) -> list[dict[str, Any]]:
    from mjenv.fans.jsonl import serve

    out = io.StringIO()
    serve(io.StringIO("".join(line + "\n" for line in lines)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_jsonl_results() -> None:
    answers = serve_in_process([json.dumps(x) for x in (E4, E1, E70, E17)])
    e4, e1, e70, e17 = answers
    assert e4["total"] == 92 and e4["meets_minimum"] is True
    assert fans_of(e4) == E4_FANS
    assert set(e4) == {"total", "meets_minimum", "fans", "decomposition"}
    assert all(set(f) == {"zh", "en", "points", "count"} for f in e4["fans"])
    assert e1["total"] == 111
    assert (e70["total"], e70["meets_minimum"]) == (10, False)
    assert fans_of(e70)[-1] == ("花牌", 1, 3)
    assert e17["total"] == 40


def test_jsonl_not_win() -> None:
    assert serve_in_process([json.dumps(NOT_WIN)]) == [{"error": "not_win"}]


def _with(base: dict[str, Any], **changes: Any) -> str:
    data = dict(base)
    data.update(changes)
    return json.dumps(data)


BAD_LINES = [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('"W1"', "must be a JSON object"),
    (_with(E4, extra=1), "unknown field(s): extra"),
    (json.dumps({"hand": E4["hand"]}), "missing field(s): win_tile"),
    (_with(E4, hand="1112345678999m"), "hand must be a list"),
    (_with(E4, hand=[0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8]), "hand must be a tile code"),
    (_with(E4, hand=["W1", "X1"]), "not a tile: 'X1'"),
    (_with(E4, hand=["H1", *E4["hand"][1:]]), "flower H1 is not part of a hand"),
    (_with(E4, win_tile=None), "win_tile must be a tile code"),
    (_with(E4, self_drawn=1), "self_drawn must be true or false, got 1"),
    (_with(E4, last_copy="false"), "last_copy must be true or false"),
    (_with(E4, last_tile=None), "last_tile must be true or false"),
    (_with(E4, kong_win=0), "kong_win must be true or false"),
    (_with(E4, seat_wind=4), "seat_wind must be 0..3, got 4"),
    (_with(E4, seat_wind="E"), "seat_wind must be an integer 0..3"),
    (_with(E4, prevalent_wind=True), "prevalent_wind must be an integer 0..3, got true"),
    (_with(E4, prevalent_wind=1.0), "prevalent_wind must be an integer 0..3"),
    (_with(E4, flowers=9), "flowers must be 0..8, got 9"),
    (_with(E4, flowers=-1), "flowers must be 0..8"),
    (_with(E4, flowers="2"), "flowers must be an integer 0..8"),
    (_with(E4, melds={"type": "pung"}), "melds must be a list"),
    (_with(E1, melds=[{"type": "peng", "tiles": ["F4"] * 3}]), "unknown meld type 'peng'"),
    (_with(E1, melds=[{"type": "pung", "tiles": ["F4"] * 3, "offer": 1}]), "unknown meld field"),
    (_with(E1, melds=[{"type": "pung", "tiles": ["F4", "F4", "F3"]}]), "3 identical tiles"),
    (_with(E1, melds=[{"type": "chow", "tiles": ["F4"] * 3}]), "three consecutive"),
    (_with(E1, melds=[{"type": "pung", "tiles": ["F4"] * 3, "from": 5}]), "from must be"),
    (_with(E4, hand=E4["hand"][:-1]), "tile"),  # 12 tiles: wrong count (InvalidHandError)
    (_with(E4, hand=["W1", *E4["hand"][:-1]], win_tile="W1"), "W1"),  # five W1
    (_with(E4, kong_win=True), "kong"),  # 杠上开花 without a kong
]


@pytest.mark.parametrize(("line", "message"), BAD_LINES, ids=[m for _, m in BAD_LINES])
def test_jsonl_invalid_lines(line: str, message: str) -> None:
    [answer] = serve_in_process([line])
    assert answer["error"] == "invalid"
    assert set(answer) == {"error", "message"}
    assert message in answer["message"]


def test_jsonl_bad_lines_in_the_middle_keep_order_and_blank_lines_are_skipped() -> None:
    lines = [json.dumps(E4), "garbage", "", "   ", json.dumps(NOT_WIN), _with(E4, flowers=True),
             json.dumps(E1), json.dumps(E4 | {"flowers": 2})]
    answers = serve_in_process(lines)
    assert len(answers) == 6
    assert answers[0]["total"] == 92
    assert answers[1]["error"] == "invalid"
    assert answers[2] == {"error": "not_win"}
    assert answers[3]["error"] == "invalid"
    assert answers[4]["total"] == 111
    assert answers[5]["total"] == 94


def test_jsonl_process_streams_line_by_line() -> None:
    """Each answer is flushed before the next request is written (a pipe, not a file)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjenv.fans"], cwd=ROOT, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for request, check in (
            (E4, lambda a: a["total"] == 92),
            ({"hand": 1}, lambda a: a["error"] == "invalid"),
            (NOT_WIN, lambda a: a == {"error": "not_win"}),
            (E1, lambda a: a["total"] == 111),
        ):
            proc.stdin.write((json.dumps(request) + "\n").encode())
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, "no answer within 60 s: the stream does not flush per line"
            assert check(json.loads(proc.stdout.readline()))
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
        assert proc.stdout.read() == b""
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("command", [("mjenv.fans",), ("mjenv", "fan", "--jsonl")])
def test_jsonl_commands_agree(command: tuple[str, ...]) -> None:
    stdin = "\n".join([json.dumps(E4), "{", json.dumps(NOT_WIN), json.dumps(E70), ""]) + "\n"
    done = run(*command, stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a.get("total", a.get("error")) for a in answers] == [92, "invalid", "not_win", 10]
    assert "九莲宝灯" in done.stdout  # UTF-8, not \\u escapes


def test_jsonl_invalid_utf8_line() -> None:
    proc = subprocess.run([sys.executable, "-m", "mjenv.fans"], cwd=ROOT, capture_output=True,
                          input=b"\xff\xfe\n" + json.dumps(E4).encode() + b"\n", timeout=120)
    assert proc.returncode == 0
    first, second = (json.loads(line) for line in proc.stdout.decode().splitlines())
    assert first["error"] == "invalid" and "UTF-8" in first["message"]
    assert second["total"] == 92


# ------------------------------------------------------------------ mjenv hand


def test_hand_ready_shows_the_waits_and_their_scores(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "1112345678999m", "--self-drawn"]) == 0
    out = capsys.readouterr().out
    assert "shanten  0: ready" in out
    regular = next(line for line in out.splitlines() if line.startswith("regular"))
    assert regular.split()[5:7] == ["0", "1m:1"]
    assert "useful tiles (9 kinds, 23 unseen copies): 1m:1 2m:3" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line[:2] in {f"{r}m" for r in range(1, 10)} and "met" in line}
    assert rows["1m"][1:4] == ["1", "107", "met"] and "九莲宝灯" in " ".join(rows["1m"])
    assert rows["5m"][1:4] == ["3", "92", "met"]
    assert "win: self-drawn" in out


def test_hand_below_the_minimum_and_melds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "345777p3355z", "--chow", "123p", "--flowers", "3"]) == 0
    out = capsys.readouterr().out
    assert "melds    chow 123p" in out
    assert [line.split()[:4] for line in out.splitlines() if line.startswith(("3z", "5z"))] == [
        ["3z", "2", "10", "NOT"], ["5z", "2", "11", "met"]]
    assert "seven pairs" not in out  # ruled out by the meld


def test_hand_fourteen_tiles_lists_the_discards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "123m456s789p11225z", "--seen", "1z 1z"]) == 0
    out = capsys.readouterr().out
    assert "shanten  0 after the best discard (ready)" in out
    assert "seen     11z" in out
    first = out.splitlines()[out.splitlines().index(
        next(line for line in out.splitlines() if line.startswith("discard "))) + 2]
    assert first.split() == ["5z", "0", "2", "2", "1z:0", "2z:2"]
    assert "  discard 5z: 1z 14, 2z 11" in out
    assert main(["hand", "11123456789999m"]) == 0
    assert "complete (-1)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give a hand"),
        (["123m"], "13 standing tiles"),
        (["123x"], "not a tile: '123x'"),
        (["1112345678999m", "--seen", "1m 1m"], "more than 4 copies"),
        (["1112345678999m", "--flowers", "9"], "flowers"),
        (["12345678999m", "--chow", "124m"], "--chow '124m'"),
        (["1112345678999m", "--kong-win", "--self-drawn"], "needs a kong"),
    ],
)
def test_hand_errors_are_one_line_with_status_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hand", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("mjenv hand: error: ")
    assert captured.err.count("\n") == 1
    assert message in captured.err


def test_hand_in_a_process() -> None:
    done = run("mjenv", "hand", "19m19s19p1234567z")
    assert done.returncode == 0, done.stderr
    assert "thirteen orphans                     0  1m:3" in done.stdout
    bad = run("mjenv", "hand", "19m19s19p1234567z", "--seat-wind", "X")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


# ------------------------------------------------------------------ mjenv replay


@pytest.fixture
def kong_record(tmp_path: Path) -> Path:
    """Seat 0 declares a concealed kong of W1 and wins on the tail replacement (杠上开花)."""
    from mjenv import actions as A
    from mjenv.engine.record import save
    from tests.engine.helpers import game, t

    g = game({0: "111m 123s 456s 789s 5p"}, draws="1m", tail="5p")
    g.step(0, A.concealed_kong(t("1m")))
    g.step(0, A.WIN)
    path = tmp_path / "hand.json"
    save(g, path)
    return path


def test_replay_everything(kong_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(kong_record)]) == 0
    out = capsys.readouterr().out
    assert "??" not in out
    assert "view     everything" in out
    assert "seat 0 (E)  is dealt W1 W1 W1 T1 T2 T3 T4 T5 T6 T7 T8 T9 B5" in out
    assert "seat 0 (E)  declares a concealed kong of W1" in out
    assert "seat 0 (E)  draws B5 from the tail" in out
    assert "wins on B5, self-drawn" in out and "concealed kongs revealed: seat 0 W1" in out
    assert "result   seat 0 wins on B5 (self-drawn)" in out and "杠上开花" in out
    assert "  seat 0  T1 T2 T3 T4 T5 T6 T7 T8 T9 B5 B5  melds [W1 W1 W1 W1]c" in out


def test_replay_as_one_seat(kong_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(kong_record), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "view     seat 1 (others' drawn tiles" in out
    assert "seat 0 (E)  is dealt 13 tiles" in lines[4]
    assert "seat 0 (E)  declares a concealed kong of ??" in out
    assert "seat 0 (E)  draws ?? from the tail" in out
    assert "seat 1 (S)  is dealt 13 tiles" not in out  # its own deal is shown in full
    # the end reveals everything: the win, the concealed kong, the hands
    assert "concealed kongs revealed: seat 0 W1" in out
    assert "melds [W1 W1 W1 W1]c" in out
    own = main(["replay", str(kong_record)])
    assert own == 0
    everything = capsys.readouterr().out
    assert len(everything.splitlines()) == len(lines)


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read"),
    ("{", "not JSON"),
    ('{"format": "mjenv-hand", "version": 2}', "version: this reader knows version 1"),
])
def test_replay_errors_are_one_line_with_status_2(
    tmp_path: Path, content: str | None, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("mjenv replay: error: ")
    assert captured.err.count("\n") == 1
    assert message in captured.err


def test_replay_a_tampered_record_in_a_process(kong_record: Path) -> None:
    rec = json.loads(kong_record.read_text(encoding="utf-8"))
    rec["actions"][0][1] = 0  # Pass is not legal for the seat to discard
    kong_record.write_text(json.dumps(rec), encoding="utf-8")
    done = run("mjenv", "replay", str(kong_record))
    assert done.returncode == 2
    assert done.stderr.startswith("mjenv replay: error: action 0 (seat 0: 0 Pass): illegal")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_replay_bad_seat_is_a_usage_error(kong_record: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(kong_record), "--seat", "4"])
    assert exit_info.value.code == 2


def test_every_option_of_every_command_has_help_and_shows_its_default() -> None:
    """``mjenv CMD --help`` explains every option and names its default (train hands its words
    to the training pipeline's own parser)."""
    import argparse

    from mjenv.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        if name == "train":
            continue
        for action in sub._actions:
            assert action.help, f"mjenv {name}: {action.dest} has no help"
        text = sub.format_help()
        for action in sub._actions:
            if isinstance(action.default, int | str) and action.default is not False \
                    and action.default != argparse.SUPPRESS and action.option_strings \
                    and not action.required:
                assert f"(default: {action.default})" in " ".join(text.split()), (name, action)
