"""``mjenv arena``, ``play``, ``botzone-bot`` and ``botzone-log`` fail in one line with status
2, never with a traceback, and never leave a file behind that blocks the corrected command or
replaces an input; Ctrl-C ends a command with status 130 and a line that says what to do."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mjenv.cli import main

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["random seed=1", "random seed=2"]


def arena(out: Path, *agents: str, extra: tuple[str, ...] = ()) -> list[str]:
    return ["arena", "--agents", *agents, "--deals", "1", "--out", str(out), "--no-progress",
            *extra]


def one_line_error(capsys: pytest.CaptureFixture[str], command: str) -> str:
    err = capsys.readouterr().err
    assert err.startswith(f"mjenv {command}: error: ") and err.count("\n") == 1, err
    return err


def saved_hand(tmp_path: Path, rules: str, seed: int) -> Path:
    """``tmp_path/hand.json``: the record of a hand of random legal play under ``rules``
    (``"mcr"`` or ``"botzone"``) from ``seed``, for the tests of commands that read one."""
    from mjenv.engine import BOTZONE, MCR, Game
    from mjenv.engine.record import save

    rng = random.Random(seed)
    game = Game({"mcr": MCR, "botzone": BOTZONE}[rules], seed=seed)
    while not game.is_over:
        seat = next(s for s in game.to_act() if game.legal_actions(s))
        game.step(seat, rng.choice(game.legal_actions(seat)))
    record = tmp_path / "hand.json"
    save(game, record)
    return record


# ------------------------------------------------------------------ a failed start
@pytest.mark.parametrize("spec", ["random colour=3", "no_such_module_x:Agent", "random seed=-3"])
def test_a_failed_start_writes_nothing_and_the_corrected_command_runs(
        spec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert main(arena(out, spec, "random")) == 2
    err = one_line_error(capsys, "arena")
    assert repr(spec) in err
    if "seed" in spec:
        assert "seed must be a non-negative integer, got -3" in err
    assert not out.exists()
    assert main(arena(out, *QUICK)) == 0
    assert (out / "results.json").exists()


@pytest.mark.parametrize("content", [None, b"not a checkpoint", b"PK\x03\x04 torn zip"])
def test_a_missing_or_corrupt_checkpoint_is_one_line(content: bytes | None, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    checkpoint = tmp_path / "model.pt"
    if content is not None:
        checkpoint.write_bytes(content)
    out = tmp_path / "run"
    assert main(arena(out, f"policy:{checkpoint}", "random")) == 2
    assert str(checkpoint) in one_line_error(capsys, "arena")
    assert not out.exists()
    assert main(["play", "--opponents", f"policy:{checkpoint}"]) == 2
    assert str(checkpoint) in one_line_error(capsys, "play")


def test_a_folder_of_another_program_is_refused_untouched(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "hands.csv").write_text("theirs,data\n1,2\n")
    assert main(arena(tmp_path, *QUICK)) == 2
    assert "hands.csv but no arena manifest" in one_line_error(capsys, "arena")
    assert (tmp_path / "hands.csv").read_text() == "theirs,data\n1,2\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.csv"]


def test_an_out_that_cannot_be_written_is_one_line(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(arena(blocker, *QUICK)) == 2
    assert "is a file, not a folder" in one_line_error(capsys, "arena")
    assert main(arena(blocker / "run", *QUICK)) == 2  # the OSError of mkdir under a file
    assert str(blocker) in one_line_error(capsys, "arena")
    if os.geteuid() != 0:  # permissions do not stop root
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert main(arena(locked / "run", *QUICK)) == 2
        assert "Permission denied" in one_line_error(capsys, "arena")


# ------------------------------------------------------------------ seeds
@pytest.mark.parametrize("args", [
    ["play", "--seed", "-3"], ["arena", "--agents", *QUICK, "--out", "x", "--seed", "-1"],
    ["botzone-bot", "--agent", "random", "--seed", "-2"]])
def test_a_negative_seed_is_said_so(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert "seed must be a non-negative integer" in capsys.readouterr().err


def test_an_agent_seed_is_said_so_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--opponents", "random seed=-3"]) == 2
    assert "seed must be a non-negative integer, got -3" in one_line_error(capsys, "play")
    assert main(["botzone-bot", "--agent", "random seed=-3"]) == 2
    assert "seed must be a non-negative integer" in one_line_error(capsys, "botzone-bot")


# ------------------------------------------------------------------ botzone-log
def test_botzone_log_never_replaces_its_input(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    record = saved_hand(tmp_path, "botzone", 3)
    original = record.read_text()
    log = tmp_path / "log.json"

    assert main(["botzone-log", "from-record", str(record), str(record)]) == 2
    assert "is the input" in one_line_error(capsys, "botzone-log")
    assert record.read_text() == original
    assert main(["botzone-log", "from-record", str(record), str(log)]) == 0
    capsys.readouterr()
    assert main(["botzone-log", "to-record", str(log), str(record)]) == 2
    assert "--force" in one_line_error(capsys, "botzone-log")
    assert record.read_text() == original
    assert main(["botzone-log", "to-record", str(log), str(log), "--force"]) == 2  # still
    assert "is the input" in one_line_error(capsys, "botzone-log")
    assert main(["botzone-log", "to-record", str(log), str(record), "--force"]) == 0
    assert json.loads(record.read_text())["result"] == json.loads(original)["result"]
    assert main(["botzone-log", "to-record", str(tmp_path / "missing.json"),
                 str(tmp_path / "new.json")]) == 2
    assert "missing.json" in one_line_error(capsys, "botzone-log")


# ------------------------------------------------------------------ a custom agent module
def test_a_module_in_the_current_folder_gets_the_pythonpath_hint(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("mjenv")
    if not script.exists():
        pytest.skip("no mjenv console script beside this Python")
    (tmp_path / "mymod.py").write_text(
        "from mjenv_agents.random_agent import RandomAgent as MyAgent\n")
    command = [str(script), *arena(tmp_path / "run", "mymod:MyAgent", "random")]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if "PYTHONPATH" in os.environ:  # a checkout run through PYTHONPATH keeps it, minus "."
        env["PYTHONPATH"] = os.pathsep.join(p for p in os.environ["PYTHONPATH"].split(os.pathsep)
                                            if p not in ("", "."))
    failed = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=120)
    assert failed.returncode == 2 and "Traceback" not in failed.stderr
    assert "mymod.py is in the current folder" in failed.stderr
    assert "PYTHONPATH=." in failed.stderr
    assert not (tmp_path / "run").exists()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [".", env.get("PYTHONPATH")]))
    fixed = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=120)
    assert fixed.returncode == 0, fixed.stderr


# ------------------------------------------------------------------ Ctrl-C
def test_ctrl_c_in_play_is_one_line_and_status_130() -> None:
    play = subprocess.Popen([sys.executable, "-m", "mjenv", "play", "--seed", "1", "--codes"],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    assert play.stdout is not None
    seen = b""
    deadline = time.monotonic() + 60
    while b"your move> " not in seen:  # the prompt has no newline: read what is there
        assert time.monotonic() < deadline and play.poll() is None, seen
        if select.select([play.stdout], [], [], 0.5)[0]:
            seen += os.read(play.stdout.fileno(), 4096)
    os.killpg(play.pid, signal.SIGINT)
    _, err = play.communicate(timeout=30)
    assert play.returncode == 130
    assert err.decode().strip() == "mjenv play: interrupted"


# ------------------------------------------------------------------ help, view and replay
@pytest.mark.parametrize("command", ["arena", "play"])
def test_every_option_of_arena_and_play_says_its_default(command: str) -> None:
    """An option the user may leave out says what it is then: its default, or what happens
    "when not given"; required options and switches have nothing to say."""
    import argparse

    from mjenv.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    help_text = sub.choices[command].format_help()
    flat = " ".join(help_text.split())
    for action in sub.choices[command]._actions:
        if action.required or action.nargs == 0 or not action.option_strings:
            continue
        name = action.option_strings[-1]
        after = flat[flat.index(name + " ", flat.index("options:")):]
        entry = after[:after.find(" --", len(name)) if " --" in after[len(name):] else None]
        assert "default" in entry or "when not given" in entry, entry


def test_view_checks_its_arguments_and_agents_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "page.html")
    for bad, said in ((["--seed", "-3"], "seed must be a non-negative integer"),
                      (["--top", "0"], "expected a positive integer, got '0'")):
        with pytest.raises(SystemExit) as exit_:
            main(["view", "--play", *["random"] * 4, "--out", out, *bad])
        assert exit_.value.code == 2 and said in capsys.readouterr().err
    assert main(["view", "--play", "random", "random", "random", "random colour=3",
                 "--out", out]) == 2
    assert "'random colour=3'" in one_line_error(capsys, "view")
    assert not Path(out).exists()


@pytest.mark.parametrize("command", ["view", "replay"])
def test_a_page_that_cannot_be_written_is_one_line(command: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    record = saved_hand(tmp_path, "mcr", 5)
    folder = tmp_path / "a-folder"
    folder.mkdir()
    argv = ["view", str(record), "--out", str(folder)] if command == "view" else \
        ["replay", str(record), "--html", str(folder)]
    assert main(argv) == 2
    assert str(folder) in one_line_error(capsys, command)
