"""Human play in the terminal: mjenv.play (parse_choice, play_in_terminal) and ``mjenv play``."""

from __future__ import annotations

import builtins
import io
import sys
from collections.abc import Callable
from typing import Any

import pytest

import mjenv.play as play_module
from mjenv import actions as A
from mjenv.cli import main
from mjenv.mahjong_env import AGENTS, MahjongEnv
from mjenv.play import QuitGame, parse_choice, play_in_terminal
from mjenv.tiles import CODES

HELP = "not a legal move here"
Answer = str | Callable[[list[str]], str]


# ------------------------------------------------------------------ parse_choice
def tile(code: str) -> int:
    return CODES.index(code)


W5, T1, J3 = tile("W5"), tile("T1"), tile("J3")
LEGAL = [A.PASS, A.WIN, A.discard(W5), A.discard(T1), A.chow(tile("W4"), W5),
         A.pung(W5), A.concealed_kong(J3)]


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
    ("w5", A.discard(W5)),  # a tile code names the discard, not the pung
    (" T1 ", A.discard(T1)),
    ("J3", None),  # J3 is only a concealed kong here
    ("Discard J3", None),
    ("pass", A.PASS),
    ("WIN", A.WIN),
    ("pung w5", A.pung(W5)),
    ("concealedkong j3", A.concealed_kong(J3)),
    (A.action_to_string(A.chow(tile("W4"), W5)).upper(), A.chow(tile("W4"), W5)),
    ("", None),
    ("   ", None),
    ("discard", None),
    ("hello", None),
])
def test_parse_choice(text: str, expected: int | None) -> None:
    assert parse_choice(text, LEGAL) == expected


def test_parse_choice_numbers_follow_the_list_order() -> None:
    legal = [A.discard(t) for t in (3, 1, 2)]
    assert [parse_choice(str(i), legal) for i in (1, 2, 3)] == legal
    assert parse_choice("1", []) is None


# ------------------------------------------------------------------ play_in_terminal
class Script:
    """``read`` for play_in_terminal: answers from a list (strings, or functions of the offered
    moves' names), then ``then`` for every further prompt."""

    def __init__(self, answers: list[Answer], then: str | None = "1") -> None:
        self.answers = list(answers)
        self.then = then
        self.out: list[str] = []
        self.prompts = 0
        self.offers: list[list[str]] = []

    def write(self, text: str) -> None:
        self.out.append(text)
        if text.startswith("  1) "):
            self.offers.append([item.split(") ", 1)[1] for item in text.strip().split("   ")])

    def read(self, prompt: str) -> str:
        assert prompt == "your move> "
        self.prompts += 1
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


def run(script: Script, seat: int = 0, seed: int = 1, **options: Any) -> None:
    _person_seat[0] = seat
    play_in_terminal(seat, seed=seed, glyphs=False, read=script.read, write=script.write,
                     **options)


def test_answer_by_number(taken: list[tuple[list[int], int]]) -> None:
    script = Script(["3", "2"])
    run(script)
    assert taken[0][1] == taken[0][0][2]
    assert taken[1][1] == taken[1][0][1]
    assert all(HELP not in line for line in script.out)
    # every decision shows the table from the person's seat and the numbered moves
    table = script.out[0]
    assert "seat 0" in table and "you" in table and "your hand" in table
    assert script.out[1].startswith("  1) ")
    assert len(script.offers[0]) == len(taken[0][0])
    assert script.offers[0] == [A.action_to_string(a) for a in taken[0][0]]


def test_answer_by_name_with_odd_case_and_spaces(taken: list[tuple[list[int], int]]) -> None:
    def by_name(offers: list[str]) -> str:
        name = offers[-1]
        return "  " + "    ".join(name.swapcase().split()) + " "

    script = Script([by_name])
    run(script)
    assert A.action_to_string(taken[0][1]) == script.offers[0][-1]
    assert script.prompts > 1 and all(HELP not in line for line in script.out)


def test_answer_by_tile_code(taken: list[tuple[list[int], int]]) -> None:
    def by_code(offers: list[str]) -> str:
        name = next(n for n in offers if n.startswith("Discard "))
        return name.split()[1].lower()

    script = Script([by_code])
    run(script)
    code = by_code(script.offers[0])
    assert taken[0][1] == A.discard(tile(code.upper()))
    assert HELP not in "\n".join(script.out)


def test_answer_by_id(taken: list[tuple[list[int], int]]) -> None:
    def by_id(offers: list[str]) -> str:
        return f"#{A.string_to_action(offers[-1])}"

    script = Script([by_id])
    run(script)
    assert taken[0][1] == taken[0][0][-1]


def test_illegal_answers_print_the_help_and_ask_again(
        taken: list[tuple[list[int], int]]) -> None:
    script = Script(["hello", "#999", "0", "", "2"])
    run(script)
    helps = [line for line in script.out if HELP in line]
    assert len(helps) == 4
    assert taken[0][1] == taken[0][0][1]  # the fifth answer was taken
    # the table is drawn once for the first decision, not for each retry
    assert len(script.offers) == len(taken)


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


@pytest.mark.parametrize(("seat", "seed"), [(0, 1), (2, 5), (3, 8)])
def test_the_game_finishes_with_the_result_line(seat: int, seed: int,
                                                taken: list[tuple[list[int], int]]) -> None:
    script = Script([])
    run(script, seat=seat, seed=seed)
    assert taken and script.out[-1].startswith("== ")
    results = [line for line in script.out if line.startswith("== ")]
    assert len(results) == 1
    assert all(f"player_{s} " in results[0] for s in range(4))
    assert all(f"seat {seat}" in table for table in script.out if "your hand" in table)


def test_same_seed_same_game() -> None:
    a, b = Script([]), Script([])
    play_in_terminal(1, seed=4, glyphs=False, read=a.read, write=a.write)
    play_in_terminal(1, seed=4, glyphs=False, read=b.read, write=b.write)
    assert a.out == b.out


def test_match_prints_every_hands_result() -> None:
    script = Script([])
    play_in_terminal(0, seed=2, glyphs=False, read=script.read, write=script.write,
                     rules="botzone", episode="match")
    assert sum(line.startswith("== ") for line in script.out) == 1  # botzone: one hand


def test_opponent_objects_and_bad_arguments() -> None:
    from mjenv_agents.random_agent import RandomAgent

    script = Script([])
    play_in_terminal(0, [RandomAgent(seed=1), "random", "random win_first=True"], seed=3,
                     read=script.read, write=script.write)
    assert script.out[-1].startswith("== ")
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
    assert script.out[0] != coded.out[0]


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
    assert prompts == ["your move> "] * 2


def test_cli_stdin_to_the_end(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 300))
    assert main(["play", "--seed", "1", "--codes", "--seat", "2",
                 "--opponents", "random", "random seed=1", "random"]) == 0
    out = capsys.readouterr().out
    assert "seat 2 S you" in out
    # the result line comes last when the game ends before the input does (piped input
    # echoes no newline after the prompt)
    last = out.rstrip().splitlines()[-1]
    assert "== " in last and "player_3 " in last and "bye" not in out


def test_cli_end_of_input(monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--seed", "1", "--codes", "--rules", "botzone"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("bye")


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
