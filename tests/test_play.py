"""Human play in the terminal: mjenv.play (answers, the text, the game loop) and ``mjenv play``.
A person in a real pseudo-terminal: tests/test_play_pty.py."""

from __future__ import annotations

import builtins
import io
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mjenv.play as play_module
from mjenv import actions as A
from mjenv.cli import main
from mjenv.engine.record import load, load_record, replay_match
from mjenv.fans.table import FAN_BY_ZH
from mjenv.mahjong_env import AGENTS, MahjongEnv
from mjenv.play import (
    QuitGame,
    columns,
    move_text,
    parse_choice,
    play_in_terminal,
    wrap_items,
    wrap_line,
)
from mjenv.tiles import CODES, GLYPHS

BAD = "is not one of your moves here"
MOVE = "your move> "
Answer = str | Callable[[list[str]], str]


# ------------------------------------------------------------------ parse_choice
def tile(code: str) -> int:
    return CODES.index(code)


W5, T1, J3 = tile("W5"), tile("T1"), tile("J3")
CHOW = A.chow(tile("W4"), W5)  # W3 W4 W5, claiming W5
LEGAL = [A.PASS, A.WIN, A.discard(W5), A.discard(T1), CHOW, A.pung(W5), A.concealed_kong(J3)]


@pytest.mark.parametrize(("text", "expected"), [
    ("1", A.PASS),
    ("3", A.discard(W5)),
    (" 7 ", A.concealed_kong(J3)),
    ("0", None),
    ("8", None),
    ("-1", None),
    ("#6", A.discard(W5)),
    (f"#{A.pung(W5)}", A.pung(W5)),
    ("#7", None),  # an id that is not legal here
    ("#999", None),
    ("#", None),
    ("# 6", None),
    ("Discard W5", A.discard(W5)),
    ("  dIsCaRd    w5  ", A.discard(W5)),
    ("DISCARD\tT1", A.discard(T1)),
    ("w5", A.discard(W5)),  # a tile names the discard, not the pung
    (" T1 ", A.discard(T1)),
    ("5m", A.discard(W5)),  # the compact notation
    ("🀋", A.discard(W5)),  # the glyph
    ("discard 🀋", A.discard(W5)),
    ("J3", None),  # J3 is only a concealed kong here
    ("Discard J3", None),
    ("pass", A.PASS),
    ("WIN", A.WIN),
    ("pung w5", A.pung(W5)),
    ("pung", A.pung(W5)),  # the kind alone names the one pung
    ("discard", None),  # ... but not one of two discards
    ("concealedkong j3", A.concealed_kong(J3)),
    ("Concealed kong J3", A.concealed_kong(J3)),
    (A.action_to_string(CHOW).upper(), CHOW),
    ("chow w3 w4 w5", CHOW),
    ("chow W3W4W5 (claim W5)", CHOW),
    ("chow w4 w5 w6", None),
    ("", None),
    ("   ", None),
    ("hello", None),
    ("W10", None),
])
def test_parse_choice(text: str, expected: int | None) -> None:
    assert parse_choice(text, LEGAL) == expected


def test_parse_choice_numbers_follow_the_list_order() -> None:
    legal = [A.discard(t) for t in (3, 1, 2)]
    assert [parse_choice(str(i), legal) for i in (1, 2, 3)] == legal
    assert parse_choice("1", []) is None


def test_every_move_as_shown_is_an_answer_that_names_it() -> None:
    for a in range(A.NUM_ACTIONS):
        legal = [a, A.PASS] if a != A.PASS else [a]
        for glyphs in (True, False):
            assert parse_choice(move_text(a, glyphs), legal) == a, move_text(a, glyphs)


# ------------------------------------------------------------------ text
def test_moves_show_glyphs_and_codes() -> None:
    assert move_text(A.discard(W5), glyphs=True) == "Discard 🀋 W5"
    assert move_text(A.discard(W5), glyphs=False) == "Discard W5"
    assert move_text(CHOW, glyphs=True) == "Chow 🀉🀊🀋 W3 W4 W5 (claim W5)"
    assert move_text(A.concealed_kong(J3), glyphs=False) == "Concealed kong J3"
    assert move_text(A.added_kong(J3), glyphs=True) == f"Added kong {GLYPHS[J3]} J3"
    assert move_text(A.PASS, glyphs=True) == "Pass" and move_text(A.WIN, True) == "Win"


def test_wrapping_never_cuts_an_item() -> None:
    items = [f"{i}) Discard {GLYPHS[i]} {CODES[i]}" for i in range(1, 30)]
    for limit in (20, 40, 57, 80, 200):
        lines = wrap_items(items, limit, first="  ", indent="  ")
        assert all(columns(line) <= limit for line in lines if " " in line.strip()[3:])
        # every item whole, in order, on one line
        found = [m.group(0) for line in lines
                 for m in re.finditer(r"\d+\) Discard \S+ [A-Z]\d", line)]
        assert found == items
    assert wrap_items(["a" * 50, "b"], 10, indent=" ") == ["a" * 50, " b"]
    long = "  seat 1 flowers -  melds [W1 W2 W3] [B5 B5 B5 B5]c (from seat 2) end"
    assert " ".join(w.strip() for w in wrap_line(long, 200)) == long.strip()
    wrapped = wrap_line(long, 30)
    assert len(wrapped) > 1 and " ".join(w.strip() for w in wrapped) == long.strip()
    assert all(columns(line) <= 30 for line in wrapped)
    assert wrapped[0] == "  seat 1 flowers -  melds"  # the spacing kept
    assert wrapped[1:] == ["      [W1 W2 W3]", "      [B5 B5 B5 B5]c", "      (from seat 2) end"]
    assert all(line.count("[") == line.count("]") for line in wrapped)
    assert wrap_line("short", 30) == ["short"]
    assert columns("🀋🀄") == 4 and columns("自摸") == 4 and columns("W5") == 2


# ------------------------------------------------------------------ play_in_terminal
class Script:
    """``read`` and ``write`` for play_in_terminal: move answers from a list (strings, or
    functions of the offered moves' texts), then ``then`` for every further move prompt
    (None: end of input); "" at "next hand" prompts; ``again`` answers "play again?"."""

    def __init__(self, answers: list[Answer], then: str | None = "1",
                 again: list[str] | None = None) -> None:
        self.answers = list(answers)
        self.then = then
        self.again = list(again or [])
        self.out: list[str] = []
        self.prompts: list[str] = []
        self.offers: list[list[str]] = []

    @property
    def text(self) -> str:
        return "\n".join(self.out)

    def write(self, text: str) -> None:
        self.out.append(text)
        if text.startswith("  1) "):
            items = re.split(r" {3}(?=\d+\) )", " ".join(text.split("\n")).strip())
            self.offers.append([" ".join(item.split(") ", 1)[1].split()) for item in items])

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("play again?"):
            if not self.again:
                raise EOFError
            return self.again.pop(0)
        if prompt != MOVE:
            return ""
        if self.answers:
            answer = self.answers.pop(0)
            return answer if isinstance(answer, str) else answer(self.offers[-1])
        if self.then is None:
            raise EOFError
        return self.then


_person_seat: list[int] = [0]  # the person's seat in the current test (set by run)


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[int], int]]:
    """Every decision of the person's seat: (legal actions, action taken)."""
    record: list[tuple[list[int], int]] = []

    class RecordingEnv(MahjongEnv):
        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if action is not None and agent == AGENTS[_person_seat[0]]:
                legal = [int(a) for a in self.action_mask(agent).nonzero()[0]]
                record.append((legal, action))
            super().step(action)

    monkeypatch.setattr(play_module, "MahjongEnv", RecordingEnv)
    return record


def run(script: Script, seat: int = 0, seed: int = 1, **options: Any) -> list[Path]:
    _person_seat[0] = seat
    return play_in_terminal(seat, seed=seed, glyphs=False, read=script.read,
                            write=script.write, width=100, **options)


def tables(script: Script) -> list[str]:
    return [t for t in script.out if "your hand" in t]


def test_answer_by_number(taken: list[tuple[list[int], int]]) -> None:
    script = Script(["3", "2"])
    run(script)
    assert taken[0][1] == taken[0][0][2]
    assert taken[1][1] == taken[1][0][1]
    assert BAD not in script.text
    # every decision shows the table from the person's seat and the numbered moves
    table = tables(script)[0]
    assert "seat 0" in table and "you" in table and "your hand" in table
    assert "your moves (? for help):" in table
    assert len(script.offers[0]) == len(taken[0][0])
    assert script.offers[0] == [move_text(a, False) for a in taken[0][0]]


def test_answer_by_name_with_odd_case_and_spaces(taken: list[tuple[list[int], int]]) -> None:
    def by_name(offers: list[str]) -> str:
        name = offers[-1]
        return "  " + "    ".join(name.swapcase().split()) + " "

    script = Script([by_name])
    run(script)
    assert move_text(taken[0][1], False) == script.offers[0][-1]
    assert len(script.prompts) > 1 and BAD not in script.text


def test_answer_by_tile_code(taken: list[tuple[list[int], int]]) -> None:
    def by_code(offers: list[str]) -> str:
        name = next(n for n in offers if n.startswith("Discard "))
        return name.split()[1].lower()

    script = Script([by_code])
    run(script)
    code = by_code(script.offers[0])
    assert taken[0][1] == A.discard(tile(code.upper()))
    assert BAD not in script.text


def test_answer_by_id(taken: list[tuple[list[int], int]]) -> None:
    def by_id(offers: list[str]) -> str:
        return f"#{parse_choice(offers[-1], list(range(A.NUM_ACTIONS)))}"

    script = Script([by_id])
    run(script)
    assert taken[0][1] == taken[0][0][-1]


def test_bad_answers_say_so_and_show_the_moves_again(
        taken: list[tuple[list[int], int]]) -> None:
    script = Script(["hello", "#999", "0", "", "2"])
    run(script)
    bad = [line for line in script.out if BAD in line]
    assert len(bad) == 4 and "'hello' is not one of your moves here" in bad[0]
    assert taken[0][1] == taken[0][0][1]  # the fifth answer was taken
    # the moves again after each bad answer; the table once for the decision
    assert script.offers[:5] == [script.offers[0]] * 5
    assert len(tables(script)) == len(taken)


def test_help_table_and_log_commands(taken: list[tuple[list[int], int]]) -> None:
    script = Script(["1", "?", "help", "t", "log", "2"])
    run(script)
    assert script.text.count("Answer with one of:") == 2
    assert "q  quit" in script.text and "t  table" in script.text
    assert len(tables(script)) == len(taken) + 1  # t: the table once more
    assert "this hand, as you saw it:" in script.text
    assert taken[1][1] == taken[1][0][1] and BAD not in script.text


def test_the_log_says_what_happened_and_hides_what_the_seat_cannot_see(
        taken: list[tuple[list[int], int]]) -> None:
    script = Script([])
    run(script, seed=3)
    logs = [t for t in script.out if t.startswith("\nsince your last move:")
            or "since your last move:" in t]
    assert logs
    text = "\n".join(logs)
    assert "you: dealt " in text and "draws a tile" in text
    assert re.search(r"seat \d \((next|opposite|previous) \S+\): .*discards [A-Z]\d", text)
    for line in text.splitlines():  # another seat's draw never shows its tile
        if line.lstrip().startswith("seat "):
            assert not re.search(r"draws [A-Z]\d", line), line
            assert "dealt" not in line


@pytest.mark.parametrize("answer", ["q", " Q ", "quit", "exit"])
def test_q_quits(answer: str, taken: list[tuple[list[int], int]]) -> None:
    script = Script(["1", answer])
    with pytest.raises(QuitGame):
        run(script)
    assert len(taken) == 1


def test_end_of_input_quits(taken: list[tuple[list[int], int]]) -> None:
    script = Script(["1"], then=None)
    with pytest.raises(QuitGame):
        run(script)
    assert len(taken) == 1


def _end_table(script: Script) -> str:
    ends = [t for t in script.out if "is over ===" in t]
    assert len(ends) == 1
    return ends[0]


@pytest.mark.parametrize(("seat", "seed"), [(0, 1), (2, 5), (3, 8), (1, 3)])
def test_the_hand_ends_with_its_table(seat: int, seed: int,
                                      taken: list[tuple[list[int], int]]) -> None:
    script = Script([])
    run(script, seat=seat, seed=seed)
    end = _end_table(script)
    assert taken and script.out[-1] == end
    lines = end.splitlines()
    rows = [line for line in lines if re.match(r"  [0-3] [ESWN]  ", line)]
    assert [int(r.split()[0]) for r in rows] == [0, 1, 2, 3]  # every seat's final hand
    assert all(re.search(r"[A-Z]\d", r) for r in rows)
    assert re.search(r"payments  you [+-]\d+   next [+-]\d+   opposite [+-]\d+   "
                     r"previous [+-]\d+", end)
    assert all(f"seat {seat}" in t for t in tables(script))


def test_a_win_shows_its_fans_in_both_languages(
        taken: list[tuple[list[int], int]]) -> None:
    for seed in range(1, 30):
        script = Script([])
        run(script, seed=seed)
        end = _end_table(script)
        if " wins: " in end or "You win: " in end:
            break
    else:
        pytest.fail("no win in 29 hands")
    fans = [line.split() for line in end.splitlines() if line.startswith("  ")
            and line.split()[0] in FAN_BY_ZH]
    assert fans
    total = 0
    for words in fans:
        fan = FAN_BY_ZH[words[0]]
        assert " ".join(words[1:-3]) == fan.en and int(words[-3]) == fan.points
        total += int(words[-1])
    assert "total" in end and re.search(rf"total\s+{total}$", end, re.M)
    assert re.search(rf"wins: {total} points, on [A-Z]\d \((self-drawn|seat \d's discard|your "
                     r"discard|robbing (seat \d's|your) kong)\)", end)


def test_same_seed_same_game() -> None:
    a, b = Script([]), Script([])
    play_in_terminal(1, seed=4, glyphs=False, read=a.read, write=a.write)
    play_in_terminal(1, seed=4, glyphs=False, read=b.read, write=b.write)
    assert a.out == b.out


def test_without_a_seed_the_deal_seed_is_shown() -> None:
    script = Script([])
    play_in_terminal(0, read=script.read, write=script.write, glyphs=False)
    said = re.match(r"deal seed (\d+) \(--seed \1 deals it again\)", script.out[0])
    assert said is not None
    seed = int(said[1])
    again = Script([])
    play_in_terminal(0, seed=seed, read=again.read, write=again.write, glyphs=False)
    assert again.out == script.out[1:]


def test_a_match_shows_the_hand_and_the_scores(tmp_path: Path) -> None:
    script = Script([])
    saved = play_in_terminal(0, seed=2, glyphs=False, read=script.read, write=script.write,
                             episode="match", save_dir=tmp_path)
    ends = [t for t in script.out if "is over ===" in t]
    assert len(ends) == 16
    assert "=== hand 1/16 is over ===" in ends[0] and "=== hand 16/16 is over" in ends[-1]
    assert script.prompts.count("Enter for the next hand, q to quit> ") == 15
    assert "\n--- hand 2/16 · scores: you " in script.text
    last = re.search(r"scores    (.*)", ends[-1])
    assert last is not None
    names = [p.name for p in saved]
    assert names == [f"match-2-hand-{h:02d}.json" for h in range(1, 17)] + ["match-2.json"]
    match = load_record(tmp_path / "match-2.json")
    games = replay_match(match)
    final = dict(zip(["you", "next", "opposite", "previous"], match["scores"], strict=True))
    assert last[1] == "   ".join(f"{k} {v:+d}" for k, v in final.items())
    for h, game in enumerate(games):
        assert load(tmp_path / names[h]).events == game.events


def test_a_botzone_match_is_one_hand() -> None:
    script = Script([])
    play_in_terminal(0, seed=2, glyphs=False, read=script.read, write=script.write,
                     rules="botzone", episode="match")
    assert "=== hand 1/1 is over ===" in script.text
    assert "Enter for the next hand" not in "".join(script.prompts)


def test_save_writes_the_hands_records(tmp_path: Path) -> None:
    script = Script([], again=["maybe", "y", "n"])
    saved = run(script, seed=7, save_dir=tmp_path / "games", again=True)
    assert [p.name for p in saved] == ["hand-7.json", "hand-8.json"]  # again: the next seed
    assert script.prompts.count("play again? (y/n)> ") == 3
    assert "y or n, please" in script.text
    assert len([t for t in script.out if "is over ===" in t]) == 2
    for path in saved:
        game = load(path)
        assert game.result is not None and f"record saved: {path}" in script.text
    again = run(Script([]), seed=7, save_dir=tmp_path / "games")
    assert [p.name for p in again] == ["hand-7-2.json"]  # never written over


def test_opponent_objects_and_bad_arguments() -> None:
    from mjenv_agents.random_agent import RandomAgent

    script = Script([])
    play_in_terminal(0, [RandomAgent(seed=1), "random", "random win_first=True"], seed=3,
                     read=script.read, write=script.write)
    assert "seat 1 RandomAgent, seat 2 random, seat 3 random win_first=True" in " ".join(
        script.out[0].split())
    assert "is over ===" in script.out[-1]
    with pytest.raises(ValueError, match="three opponents"):
        play_in_terminal(0, ["random"] * 2, read=script.read, write=script.write)
    with pytest.raises(ValueError, match="seat"):
        play_in_terminal(4, read=script.read, write=script.write)
    with pytest.raises(ValueError, match="unknown agent spec"):
        play_in_terminal(0, ["random", "random", "nosuch"], read=script.read,
                         write=script.write)


def test_glyphs_by_default() -> None:
    script = Script([], then=None)
    with pytest.raises(QuitGame):
        play_in_terminal(0, seed=1, read=script.read, write=script.write)
    coded = Script([], then=None)
    with pytest.raises(QuitGame):
        play_in_terminal(0, seed=1, glyphs=False, read=coded.read, write=coded.write)
    assert script.out[1] != coded.out[1]
    assert re.search(r"1\) Discard \S \S\S", script.text)  # glyph and code


def test_lines_fit_the_width() -> None:
    script = Script([])
    play_in_terminal(0, seed=5, read=script.read, write=script.write, width=60)
    for text in script.out:
        for line in text.splitlines():
            assert columns(line) <= 59 or " " not in line.strip(), line


# ------------------------------------------------------------------ mjenv play
def test_cli_quit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["2", "q"])
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        return next(answers)

    monkeypatch.setattr(builtins, "input", fake_input)
    assert main(["play", "--seed", "1", "--codes"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("bye")
    assert "your hand" in out and "1) Discard" in out
    assert prompts == [MOVE] * 2


def test_cli_stdin_to_the_end(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 300))
    assert main(["play", "--seed", "1", "--codes", "--seat", "2", "--save", str(tmp_path),
                 "--opponents", "random", "random seed=1", "random"]) == 0
    out = capsys.readouterr().out
    assert "seat 2 (N) · " in out or "seat 2 (" in out
    assert "is over ===" in out and "play again? (y/n)> " in out
    assert (tmp_path / "hand-1.json").exists()


def test_cli_end_of_input(monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--seed", "1", "--codes", "--rules", "botzone"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("bye")


def test_cli_rule_opponents(monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 200 + "n\n"))
    assert main(["play", "--seed", "3", "--codes", "--opponents", "rule"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 rule, seat 2 rule, seat 3 rule" in out and "is over ===" in out


@pytest.mark.parametrize("opponents", [["random", "random"], ["random"] * 4])
def test_cli_bad_opponent_count(opponents: list[str],
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--opponents", *opponents]) == 2
    assert "one opponent spec or three" in capsys.readouterr().err


def test_cli_bad_opponent_spec(monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--opponents", "nosuchagent"]) == 2
    assert "unknown agent spec" in capsys.readouterr().err


def test_cli_bad_seat(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "--seat", "4"])
    assert info.value.code == 2


def test_cli_save_into_a_file_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 300))
    (tmp_path / "file").write_text("")
    assert main(["play", "--seed", "1", "--codes", "--save", str(tmp_path / "file")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(tmp_path / "file") in err[0]


def test_cli_policy_opponents(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    torch = pytest.importorskip("torch")
    from mjenv_agents.policy import PolicyConfig, PolicyNet, save_checkpoint

    torch.manual_seed(0)
    checkpoint = tmp_path / "net.pt"
    save_checkpoint(checkpoint, PolicyNet(PolicyConfig(channels=8, blocks=1)).eval(), {})
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 300 + "n\n"))
    assert main(["play", "--seed", "2", "--codes", "--opponents", f"policy:{checkpoint}"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"seat 1 policy:{checkpoint}, seat 2 policy:{checkpoint}" in out
    assert "is over ===" in out
