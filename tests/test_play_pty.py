"""``mjenv play`` as a person meets it: the real command in a pseudo-terminal (pexpect), 80
columns wide. A scripted person asks for help, makes typos, plays a whole hand against the
rule-based player, reads the log and the end-of-hand table, saves the record, says no to
another hand; ``mjenv view`` then draws the saved record. Ctrl-C ends with one line and
status 130."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")  # the dev extra

from mjenv.cli import main  # noqa: E402
from mjenv.engine.record import load  # noqa: E402
from mjenv.play import columns  # noqa: E402

COLUMNS = 80
SEED = 2  # the person and three rule-based players: seat 1 wins, self-drawn, 22 points
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(*args: str) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONIOENCODING"] = "utf-8"
    return pexpect.spawn(sys.executable, ["-m", "mjenv", "play", *args], env=env,
                         dimensions=(40, COLUMNS), encoding="utf-8", timeout=60)


def test_a_person_plays_a_hand_saves_it_and_views_it(tmp_path: Path) -> None:
    saved = tmp_path / "games"
    child = spawn("--seed", str(SEED), "--opponents", "rule", "--save", str(saved))
    seen: list[str] = []

    def prompt() -> str:
        child.expect_exact("your move> ")
        seen.append(child.before)
        return child.before

    first = prompt()
    assert "one hand (seed 2) · you are seat 0" in first
    assert "since your last move:" in first and "you: dealt " in first
    assert "your hand" in first and "your moves (? for help):" in first
    assert re.search(r"1\) Discard \S \S\S", first)  # the glyph and the code
    moves = re.findall(r"\d+\) [^\r\n]+?(?=   \d+\)|\r|$)", first)
    assert moves

    child.sendline("?")
    assert "Answer with one of:" in prompt() and "q  quit" in seen[-1]
    for typo in ("W10", "disacrd W5", "99"):
        child.sendline(typo)
        text = prompt()
        assert f"{typo!r} is not one of your moves here" in text
        assert "1) Discard" in text  # the moves again

    decisions = 0
    while True:
        match = re.search(r"(\d+)\) Win\b", seen[-1])
        child.sendline(match.group(1) if match else "1")
        decisions += 1
        index = child.expect_exact(["your move> ", "play again? (y/n)> "])
        seen.append(child.before)
        if index == 1:
            break
    end = seen[-1]
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, end
    assert decisions > 5

    text = "".join(seen)
    # the log: the other seats' draws hidden, their discards shown
    assert re.search(r"seat 1 \(next 下家\): draws a tile · discards \S \S\S", text)
    assert not re.search(r"seat \d \([^)]*\): (?:[^\r\n]* · )?draws \S [A-Z]\d", text)
    # the end of the hand: every seat's hand, the fans in both languages, the payments
    assert "=== the hand is over ===" in end
    assert re.search(r"seat 1 \(next 下家\) wins: 22 points, on \S \S\S \(self-drawn\)", end)
    assert len(re.findall(r"^  [0-3] [ESWN]  ", end, re.M)) == 4
    assert re.search(r"^  total\s+22\s*$", end, re.M)
    assert re.search(r"payments  you -\d+   next \+\d+   opposite -\d+   previous -\d+", end)
    path = saved / "hand-2.json"
    assert "record saved:" in end and str(path) in end
    game = load(path)
    assert game.result is not None and game.result.fan_total == 22
    for zh, _ in game.result.fans:
        from mjenv.fans.table import FAN_BY_ZH

        assert re.search(rf"^  {zh}\s+{re.escape(FAN_BY_ZH[zh].en)}\s+\d+", end, re.M), zh
    # clean wrapping: no line wider than the terminal, but a word wider than a line (a path)
    for line in ANSI.sub("", text).replace("\r", "").split("\n"):
        assert columns(line) <= COLUMNS or " " not in line.strip(), line

    # the saved record, drawn by mjenv view
    page = tmp_path / "hand.html"
    assert main(["view", str(path), "--out", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    for zh, _ in game.result.fans:
        assert zh in html or json.dumps(zh)[1:-1] in html, zh


def test_ctrl_c_ends_with_one_line_and_status_130() -> None:
    child = spawn("--seed", "1", "--codes")
    child.expect_exact("your move> ")
    child.sendintr()
    child.expect(pexpect.EOF, timeout=20)
    child.close()
    rest = ANSI.sub("", child.before).replace("\r", "")
    assert child.exitstatus == 130, rest
    lines = [line for line in rest.split("\n") if line.strip() and line.strip() != "^C"]
    assert lines == ["mjenv play: interrupted"], rest


def test_quit_says_bye() -> None:
    child = spawn("--seed", "1", "--codes", "--opponents", "random", "greedy", "rule")
    child.expect_exact("your move> ")
    assert "seat 1 random, seat 2 greedy, seat 3 rule" in " ".join(child.before.split())
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and child.before.strip().endswith("bye")
