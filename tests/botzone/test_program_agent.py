"""Botzone bot programs as agents (mjenv.botzone.program_agent) in the arena, as real
subprocesses: a legal bot in every I/O mode, and broken bots that crash, hang, print garbage or
too much, or answer illegally — each penalized and logged, with no result lost."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mjenv.agent import make_agent, parse_spec
from mjenv.arena.config import ArenaConfig
from mjenv.arena.play import play_task
from mjenv.botzone.process import BotProcess
from mjenv.cli import main as cli_main

BOTS = Path(__file__).resolve().parent / "bots"
DUMB = f"{sys.executable} {BOTS / 'dumb.py'}"


def spec(mode: str, *options: str, keep: bool = True) -> str:
    """The dumb bot's spec; ``keep``: as a keep-running bot (the flag and the option)."""
    flag = " --keep-running" if keep else ""
    return f'botzone:"{DUMB} {mode}{flag}" ' + " ".join(
        [*options, *(["keep_running=True"] if keep else [])])


def rows_of(agent: str, deals: int = 1, seatings: int = 4) -> list[dict]:
    config = ArenaConfig(agents=(agent, "random"), rules="botzone", deals=deals)
    rows = []
    for task in config.tasks()[:seatings]:
        rows.extend(play_task(config, task))
    return rows


def test_the_spec() -> None:
    path, options = parse_spec('botzone:"python bot.py --x" io=json time_limit=2')
    assert path == "mjenv.botzone.program_agent:BotzoneProgramAgent"
    assert options == {"command": "python bot.py --x", "io": "json", "time_limit": 2}
    assert parse_spec("botzone") == (path, {})  # a bare name: the factory is not imported yet
    with pytest.raises(ValueError, match="botzone needs a command"):
        make_agent("botzone")
    with pytest.raises(ValueError, match="io must be one of"):
        make_agent('botzone:"python x.py" io=xml')


@pytest.mark.parametrize("io", ["simple", "json"])
def test_a_legal_bot_plays_kept_running(io: str) -> None:
    rows = rows_of(spec("ok", f"io={io}"), seatings=1)
    assert len(rows) == 4 and not any(r["error"] for r in rows)


@pytest.mark.parametrize("io", ["simple", "json"])
def test_a_fresh_process_gets_the_whole_history(io: str) -> None:
    """Fresh-process mode: every turn a new process, given the history (a whole game costs
    a process start per turn: see the acceptance test)."""
    process = BotProcess([sys.executable, str(BOTS / "dumb.py"), "ok"], io=io,
                         keep_running=False)
    assert process.ask("0 1 0") == "PASS"
    assert process.ask("1 0 0 0 0 " + " ".join(["W1"] * 13)) == "PASS"
    assert process.ask("2 T3") == "PLAY T3"
    assert process.responses == ["PASS", "PASS", "PLAY T3"] and process._proc is None


@pytest.mark.acceptance
@pytest.mark.slow
@pytest.mark.parametrize("io", ["simple", "json"])
def test_acceptance_a_legal_bot_plays_fresh_processes(io: str) -> None:
    rows = rows_of(spec("ok", f"io={io}", "keep_running=False", keep=False), seatings=2)
    assert len(rows) == 8 and not any(r["error"] for r in rows)


def test_the_sample_bot_plays_whole_games() -> None:
    rows = rows_of(f'botzone:"{sys.executable} -m mjenv.botzone.sample_bot --keep-running" '
                   "keep_running=True", seatings=2)
    assert len(rows) == 8 and not any(r["error"] or r["penalized"] for r in rows)


@pytest.mark.parametrize(("mode", "verdict"), [
    ("crash", "RE"), ("hang", "TLE"), ("garbage", "WA"), ("illegal", "WA"), ("flood", "OLE"),
    ("false-win", "WH"), ("late-crash", "RE")])
def test_a_broken_bot_is_penalized_and_logged(mode: str, verdict: str,
                                              caplog: pytest.LogCaptureFixture) -> None:
    rows = rows_of(spec(mode, "time_limit=0.5", "max_output=10000"), seatings=2)
    assert len(rows) == 8  # no result lost
    for game in (rows[:4], rows[4:]):
        bad = [r for r in game if r["penalized"]]
        assert len(bad) == 1 and bad[0]["agent"].startswith("botzone:"), game
        assert bad[0]["score"] == -30 and f"{verdict}: botzone bot" in bad[0]["error"]
        assert sorted(r["score"] for r in game) == [-30, 10, 10, 10]
    assert any(verdict in m for m in caplog.messages)


def test_the_arena_command_carries_on(tmp_path: Path) -> None:
    out = tmp_path / "run"
    status = cli_main(["arena", "--agents", spec("crash"), "random", "--rules", "botzone",
                       "--deals", "1", "--out", str(out), "--no-progress"])
    assert status == 0
    results = json.loads((out / "results.json").read_text())
    text = json.dumps(results)
    assert "botzone" in text
    assert len((out / "hands.csv").read_text().splitlines()) == 1 + 16


def test_a_bot_needs_the_botzone_rules() -> None:
    with pytest.raises(ValueError, match="botzone rules"):
        ArenaConfig(agents=(spec("ok"), "random"), rules="mcr")
