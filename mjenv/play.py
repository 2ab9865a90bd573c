"""``mjenv play``: a person plays one seat in the terminal against agents.

At each of the person's decisions the terminal shows, in this order: in a match, the hand
number and the running scores; the log of what happened since the person's last decision (as
the seat saw it: the other seats' draws and concealed kongs are hidden; their discards, claims,
kongs and flowers are not); the table from the person's seat (mjenv.render, so nothing hidden
shows); and the moves on offer, numbered, with the tiles drawn as in the hand (glyph and code).

The person answers with

- the move's number in the list (``3``);
- a tile, to discard it: a code (``W5``), the compact notation (``5m``) or the glyph;
- a move's name, case, spaces and brackets ignored (``pung b3``, ``Discard W5``,
  ``chow w4 w5 w6``, ``ConcealedKong J3``, ``win``, ``pass``), or its kind alone when it
  names one move (``pung``);
- the action id after ``#`` (``#6``);

or a command: ``?`` / ``help`` (this list), ``t`` / ``table`` (the table again), ``log`` (the
whole hand as the seat saw it), ``q`` / ``quit`` (leave; end of input too). A bad answer says
so and shows the moves again.

When a hand ends the terminal shows the end of the log and a table: every seat's final hand,
melds and flowers, the winner's fans in Chinese and English with their points, the payments
(and in a match the scores so far). ``save`` writes the record of every finished hand (and of
the match) for ``mjenv view`` / ``mjenv replay``. Lines are wrapped to the terminal's width
between items (a tile, a move, a meld is never cut).
"""

from __future__ import annotations

import re
import secrets
import shutil
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from mjenv import actions as A
from mjenv.agent import Agent, make_agent
from mjenv.engine import events as E
from mjenv.engine.game import Game
from mjenv.engine.record import match_record, record_of, save
from mjenv.mahjong_env import AGENTS, MahjongEnv, result_info
from mjenv.melds import CONCEALED_KONG, Meld
from mjenv.render import render_view
from mjenv.render.text import table, width
from mjenv.tiles import CODES, GLYPHS, parse_tiles

QUIT = ("q", "quit", "exit")
HELP = ("?", "h", "help")
TABLE = ("t", "table")
LOG = ("l", "log")
WINDS = ("East", "South", "West", "North")
RELATIVE = ("you", "next 下家", "opposite 对家", "previous 上家")
"""Each seat as the person calls it, by its offset from the person's seat."""
COMMANDS = """\
  Answer with one of:
    3                     the move with that number in the list
    W5  or 5m  or 🀋       discard that tile (a code, the compact notation, or the glyph)
    pung b3, win, pass    a move by its name (case and spaces do not matter;
    chow w4 w5 w6           the kind alone, "pung", when there is one such move)
    #6                    the move with that action id (0..234)
  Commands:
    ?  help               this list
    t  table              the table again
    log                   everything you saw this hand
    q  quit               leave the game"""
BAD_ANSWER = ("  {answer!r} is not one of your moves here: type a number from the list, a "
              "tile to discard (W5, 5m), a move's name (pung, win, pass), or ? for help")


class QuitGame(Exception):
    """The person quit."""


# ================================================================ answers
def _normal(text: str, glyphs: str = "codes") -> str:
    """Lower case, only letters and digits: ``Chow W4W5W6 (claim W5)`` and ``chow w4 w5 w6
    claim w5`` are the same words. Tile glyphs become codes (``glyphs="codes"``: ``discard
    🀋``) or are dropped (``"drop"``: ``Discard 🀋 W5`` as the move list shows it)."""
    if glyphs == "codes":
        text = "".join(CODES[GLYPHS.index(ch)] if ch in GLYPHS else ch for ch in text)
    return re.sub(r"[^0-9a-z]", "", text.lower())


def parse_choice(text: str, legal: Sequence[int]) -> int | None:
    """The legal action ``text`` names (see the module docstring), or None."""
    words = " ".join(text.split()).lower()
    if not words:
        return None
    if words.isdigit():
        return legal[int(words) - 1] if 1 <= int(words) <= len(legal) else None
    if words.startswith("#"):
        return int(words[1:]) if words[1:].isdigit() and int(words[1:]) in legal else None
    try:
        tiles = parse_tiles(text)
    except ValueError:
        tiles = []
    if len(tiles) == 1 and tiles[0] < len(CODES) and A.discard(tiles[0]) in legal:
        return A.discard(tiles[0])
    said = {_normal(text), _normal(text, glyphs="drop")}
    for a in legal:
        name = A.action_to_string(a)
        if said & {_normal(name), _normal(name.partition("(")[0])}:
            return a
    # a kind alone (``pung``, ``win``) when it names one move here
    kinds = [a for a in legal if _normal(A.action_to_string(a).split()[0]) in said]
    return kinds[0] if len(kinds) == 1 else None


# ================================================================ text
def tile_text(t: int, glyphs: bool) -> str:
    """A tile as the hand shows it, with its code: ``🀋 W5`` (``W5`` without glyphs); a
    hidden one is ``a tile``."""
    if t == E.HIDDEN:
        return "a tile"
    return f"{GLYPHS[t]} {CODES[t]}" if glyphs else CODES[t]


def _tiles_text(tiles: Iterable[int], glyphs: bool) -> str:
    tiles = list(tiles)
    codes = " ".join(CODES[t] for t in tiles)
    return f"{''.join(GLYPHS[t] for t in tiles)} {codes}" if glyphs else codes


def move_text(a: int, glyphs: bool) -> str:
    """A move as the list shows it: ``Discard 🀋 W5``, ``Chow 🀊🀋🀌 W4 W5 W6 (claim W5)``."""
    kind, tile = A.decode(a)
    if kind == A.K_CHOW:
        middle, claimed = A.decode_chow(a)
        return (f"Chow {_tiles_text((middle - 1, middle, middle + 1), glyphs)} "
                f"(claim {CODES[claimed]})")
    names = {A.K_DISCARD: "Discard", A.K_PUNG: "Pung", A.K_KONG: "Kong",
             A.K_CONCEALED_KONG: "Concealed kong", A.K_ADDED_KONG: "Added kong"}
    if kind in names:
        return f"{names[kind]} {tile_text(tile, glyphs)}"
    return A.action_to_string(a)


def event_words(event: E.Event, glyphs: bool) -> str:
    """What a seat did, in words (a hidden tile is ``a tile``); the subject comes first."""
    def t(tile: int) -> str:
        return tile_text(tile, glyphs)

    if isinstance(event, E.Deal):
        return (f"dealt {_tiles_text(sorted(event.tiles), glyphs)}" if event.tiles
                else "dealt 13 tiles")
    if isinstance(event, E.Flower):
        return f"flower {t(event.tile)}"
    if isinstance(event, E.Draw):
        return f"draws {t(event.tile)}" + (" (replacement)" if event.replacement else "")
    if isinstance(event, E.Discard):
        return f"discards {t(event.tile)}"
    if isinstance(event, E.Chow):
        return f"CHOWS {_tiles_text(event.tiles, glyphs)} (takes {t(event.claimed)})"
    if isinstance(event, E.Pung):
        return f"PUNGS {t(event.tile)}"
    if isinstance(event, E.Kong):
        return f"KONGS {t(event.tile)}"
    if isinstance(event, E.AddedKong):
        return f"ADDS A KONG {t(event.tile)}"
    if isinstance(event, E.ConcealedKong):
        return "declares a CONCEALED KONG" + (
            f" {t(event.tile)}" if event.tile != E.HIDDEN else "")
    if isinstance(event, E.Win):
        how = "self-drawn" if event.from_seat is None else "robbing a kong" if event.robbed \
            else "on a discard"
        return f"WINS on {t(event.tile)} ({how}), {event.fan_total} points"
    if isinstance(event, E.DrawGame):
        return "draws the last tile: exhaustive draw"
    if isinstance(event, E.Penalty):
        return "declared a false win: PENALIZED"
    return type(event).__name__


def columns(text: str) -> int:
    """Terminal columns of ``text``, a tile glyph counted as two (most terminals draw them
    wide, some narrow: counting two never overflows a line)."""
    return width(text) + sum(1 for ch in text if ch in GLYPHS and width(ch) == 1)


def wrap_items(items: Sequence[str], limit: int, first: str = "", indent: str = "    ",
               sep: str = "   ") -> list[str]:
    """``items`` joined by ``sep`` after ``first``, in lines of at most ``limit`` columns
    (:func:`columns`), broken between items only; the next lines start with ``indent``. An
    item wider than a line gets a line of its own."""
    lines: list[str] = []
    line = first
    fresh = True  # nothing on this line yet but its lead
    for item in items:
        candidate = line + ("" if fresh else sep) + item
        if fresh or columns(candidate) <= limit:
            line, fresh = candidate, False
        else:
            lines.append(line)
            line = indent + item
    lines.append(line)
    return lines


_TOKEN = re.compile(r"(?:\[[^\]]*\]|\([^)]*\)|[^\s\[(])+")
"""A word of a line, a bracketed group (a meld, ``(W5, 5m)``) inside it kept whole."""


def wrap_line(line: str, limit: int) -> list[str]:
    """One line of text wrapped between its words, a ``[meld]`` or ``(group)`` kept whole,
    its spacing kept where it is not broken; the next lines indented four columns further
    than the first."""
    if columns(line) <= limit:
        return [line]
    lead = line[: len(line) - len(line.lstrip())]
    lines: list[str] = []
    current, end = "", 0  # the line being built, and where in ``line`` it has got to
    for m in _TOKEN.finditer(line):
        piece = line[end:m.end()]  # the spaces before the word, then the word
        if current.strip() and columns(current + piece) > limit:
            lines.append(current)
            current = lead + "    " + m.group(0)
        else:
            current += piece
        end = m.end()
    lines.append(current)
    return lines


def _seat_name(s: int, me: int) -> str:
    offset = (s - me) % 4
    return "you" if offset == 0 else f"seat {s} ({RELATIVE[offset]})"


def by_seat(values: Sequence[int], me: int) -> str:
    """``you +24   next -8   opposite -8   previous -8``: a number per seat, the person's
    first, then in playing order."""
    return "   ".join(f"{RELATIVE[k].split()[0]} {values[(me + k) % 4]:+d}" for k in range(4))


def _whose(s: int, me: int) -> str:
    return "your" if s == me else f"seat {s}'s"


def _meld_text(m: Meld, glyphs: bool) -> str:
    text = "".join(GLYPHS[t] for t in m.tiles) if glyphs else " ".join(CODES[t] for t in m.tiles)
    return f"[{text}]" + ("c" if m.kind == CONCEALED_KONG else "")


def _hand_glyphs(tiles: Sequence[int], glyphs: bool) -> str:
    return "".join(GLYPHS[t] for t in tiles) if glyphs else " ".join(CODES[t] for t in tiles)


def hand_table(game: Game, me: int, glyphs: bool, scores: Sequence[int] | None = None,
               hand_label: str = "the hand", limit: int = 100) -> list[str]:
    """The end of a hand: how it ended, every seat's final hand, the fans (both languages,
    points), the payments, and in a match the scores after it; a seat's line is wrapped to
    ``limit`` columns between its hand, its melds and its flowers."""
    result = game.result
    assert result is not None
    info = result_info(result)
    lines = [f"=== {hand_label} is over ==="]
    if result.winner is not None:
        how = ("self-drawn" if result.self_drawn or result.from_seat is None else
               f"robbing {_whose(result.from_seat, me)} kong" if result.robbed else
               f"{_whose(result.from_seat, me)} discard")
        win = tile_text(result.win_tile, glyphs) if result.win_tile is not None else "?"
        who = "You win" if result.winner == me else f"{_seat_name(result.winner, me)} wins"
        lines.append(f"{who}: {result.fan_total} points, on {win} ({how})")
    elif result.penalized is not None:
        who = "You" if result.penalized == me else _seat_name(result.penalized, me)
        lines.append(f"{who} declared a false win and {'are' if who == 'You' else 'is'} "
                     "penalized")
    else:
        lines.append("Exhaustive draw (荒庄): the wall is empty, nobody pays")
    # the tiles last and unaligned: terminals draw the glyphs one or two columns wide
    seats = [f"{s} {WINDS[game.seat_wind(s)][0]}  {RELATIVE[(s - me) % 4]}"
             + (" ★" if s == result.winner else "") for s in range(4)]
    pad = max(width(w) for w in seats) + 2
    for s in range(4):
        hand = _hand_glyphs(game.hand_tiles(s), glyphs)
        if s == result.winner and result.win_tile is not None and not result.self_drawn:
            hand += " + " + _hand_glyphs([result.win_tile], glyphs)
        items = [hand]
        if game.melds[s]:
            items.append("melds " + " ".join(_meld_text(m, glyphs) for m in game.melds[s]))
        if game.flowers[s]:
            items.append("flowers " + _hand_glyphs(game.flowers[s], glyphs))
        lines += wrap_items(items, limit, first="  " + seats[s] + " " * (pad - width(seats[s])),
                            indent=" " * (pad + 2))
    if info["fans"]:
        fans: list[tuple[str, ...]] = [("fan", "", "points", "count", "sum")]
        for f in info["fans"]:
            fans.append((f["zh"], f["en"], str(f["points"]), f"×{f['count']}",
                         str(f["points"] * f["count"])))
        fans.append(("total", "", "", "", str(info["total"])))
        lines += ["  " + line for line in table(fans, right=(2, 4))]
    lines.append("  payments  " + by_seat(result.payments, me))
    if scores is not None:
        lines.append("  scores    " + by_seat(scores, me))
    return lines


# ================================================================ playing
class TerminalGame:
    """One person at ``seat`` against ``opponents`` (see :func:`play_in_terminal`)."""

    def __init__(self, seat: int, opponents: Sequence[str | Agent], *, glyphs: bool,
                 read: Callable[[str], str], write: Callable[[str], None],
                 save_dir: Path | None, line_width: int | None,
                 env_options: dict[str, object]) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(4):
            raise ValueError(f"seat must be 0..3, got {seat!r}")
        if len(opponents) != 3:
            raise ValueError(f"three opponents, please (got {len(opponents)})")
        self.seat = seat
        self.bots = [make_agent(o) if isinstance(o, str) else o for o in opponents]
        self.names = [o if isinstance(o, str) else type(o).__name__ for o in opponents]
        self.others = [(seat + 1 + i) % 4 for i in range(3)]
        self.glyphs = glyphs
        self.read, self._write = read, write
        self.save_dir = save_dir
        self.width = line_width
        self.env_options = env_options
        self.saved: list[Path] = []
        self.env: MahjongEnv | None = None
        self._game: Game | None = None  # the hand whose events the log has shown
        self._shown = 0  # events of that hand shown
        self._hands_done = 0

    # ------------------------------------------------------------ output
    def columns(self) -> int:
        return self.width or shutil.get_terminal_size((100, 24)).columns

    def write(self, text: str) -> None:
        limit = max(40, self.columns() - 1)
        self._write("\n".join(w for line in text.split("\n") for w in wrap_line(line, limit)))

    def _moves(self, legal: Sequence[int]) -> None:
        items = [f"{i + 1}) {move_text(a, self.glyphs)}" for i, a in enumerate(legal)]
        self._write("\n".join(wrap_items(items, max(40, self.columns() - 1), first="  ",
                                         indent="  ")))

    # ------------------------------------------------------------ the log
    def _log(self, game: Game, everything: bool = False) -> list[str]:
        """The log lines of ``game``'s events the person has not seen yet (all of them with
        ``everything``), one line per run of one seat's events."""
        if game is not self._game:
            self._game, self._shown = game, 0
        start = 0 if everything else self._shown
        events = [E.view(e, self.seat) for e in game.events[start:]]
        events = [e for e in events if not (isinstance(e, E.Deal) and not e.tiles)]
        self._shown = len(game.events)
        runs: list[tuple[int, list[str]]] = []
        for e in events:
            words = event_words(e, self.glyphs)
            if runs and runs[-1][0] == e.seat:
                runs[-1][1].append(words)
            else:
                runs.append((e.seat, [words]))
        limit = max(40, self.columns() - 1)
        lines = []
        for s, items in runs:
            lines += wrap_items(items, limit, first=f"  {_seat_name(s, self.seat)}: ",
                                indent="      ", sep=" · ")
        return lines

    # ------------------------------------------------------------ a decision
    def _header(self, env: MahjongEnv) -> str:
        if env.match is None:
            return ""
        scores = env.match.scores
        return (f"--- hand {env.match.hand_index + 1}/{env.rules.hands_per_match} · scores: "
                + by_seat(scores, self.seat) + " ---")

    def _decide(self, env: MahjongEnv, legal: list[int]) -> int:
        game = env.game
        assert game is not None
        out = [""]
        if header := self._header(env):
            out.append(header)
        log = self._log(game)
        if log:
            out += ["since your last move:", *log]
        out.append(render_view(env.view(AGENTS[self.seat]), glyphs=self.glyphs))
        out.append("your moves (? for help):")
        self.write("\n".join(out))
        self._moves(legal)
        while True:
            try:
                text = self.read("your move> ")
            except EOFError:
                raise QuitGame from None
            said = text.strip().lower()
            if said in QUIT:
                raise QuitGame
            if said in HELP:
                self.write(COMMANDS)
            elif said in TABLE:
                self.write(render_view(env.view(AGENTS[self.seat]), glyphs=self.glyphs))
            elif said in LOG:
                self.write("\n".join(["this hand, as you saw it:",
                                      *self._log(game, everything=True)]))
            else:
                choice = parse_choice(text, legal)
                if choice is not None:
                    return choice
                self.write(BAD_ANSWER.format(answer=text.strip()))
            self._moves(legal)

    # ------------------------------------------------------------ the end of a hand
    def _finished(self, env: MahjongEnv) -> list[Game]:
        if env.match is not None:
            return list(env.match.games)
        game = env.game
        return [game] if game is not None and game.result is not None else []

    def _hand_over(self, env: MahjongEnv, game: Game, index: int, seed: int) -> None:
        match = env.match
        out = [""]
        log = self._log(game)
        if log:
            out += ["since your last move:", *log]
        label = (f"hand {index + 1}/{env.rules.hands_per_match}" if match is not None
                 else "the hand")
        scores = None
        if match is not None:  # the scores after this hand
            scores = [sum(r.payments[s] for r in match.results[:index + 1]) for s in range(4)]
        out += hand_table(game, self.seat, self.glyphs, scores, label,
                          limit=max(40, self.columns() - 1))
        if self.save_dir is not None:
            name = (f"match-{seed}-hand-{index + 1:02d}.json" if match is not None
                    else f"hand-{seed}.json")
            out.append(f"  record saved: {self._save(record_of(game), name)}")
        self.write("\n".join(out))
        if match is not None and not match.is_over:
            try:
                answer = self.read("Enter for the next hand, q to quit> ")
            except EOFError:
                raise QuitGame from None
            if answer.strip().lower() in QUIT:
                raise QuitGame

    def _save(self, record: dict[str, object], name: str) -> Path:
        assert self.save_dir is not None
        self.save_dir.mkdir(parents=True, exist_ok=True)
        path = self.save_dir / name
        k = 2
        while path.exists() or path in self.saved:
            path = self.save_dir / f"{Path(name).stem}-{k}.json"
            k += 1
        save(record, path)
        self.saved.append(path)
        return path

    # ------------------------------------------------------------ an episode
    def play(self, seed: int) -> None:
        """Play one episode (a hand or a match) on ``seed``."""
        env = self.env = MahjongEnv(**self.env_options)  # type: ignore[arg-type]
        env.reset(seed=seed)
        self._game, self._shown, self._hands_done = None, 0, 0
        for i, bot in enumerate(self.bots):
            bot.reset(self.others[i], seed + 1 + i)
        me = AGENTS[self.seat]
        what = (f"a {env.rules.hands_per_match}-hand match" if env.match is not None
                else "one hand")
        self.write(f"{what} (seed {seed}) · you are seat {self.seat} · "
                   + ", ".join(f"seat {s} {self.names[i]}" for i, s in enumerate(self.others))
                   + " · ? for help")
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            s = AGENTS.index(agent)
            if agent == me:
                legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
                env.step(self._decide(env, legal))
            else:
                env.step(self.bots[self.others.index(s)].act(obs["observation"],
                                                             obs["action_mask"]))
            finished = self._finished(env)
            for index in range(self._hands_done, len(finished)):
                self._hands_done = index + 1
                self._hand_over(env, finished[index], index, seed)
        if env.match is not None and self.save_dir is not None:
            path = self._save(match_record(env.match), f"match-{seed}.json")
            self.write(f"  match record saved: {path}")


def play_in_terminal(seat: int = 0, opponents: Sequence[str | Agent] = ("random",) * 3,
                     seed: int | None = None, glyphs: bool = True,
                     read: Callable[[str], str] | None = None,
                     write: Callable[[str], None] | None = None,
                     save_dir: str | Path | None = None, again: bool = False,
                     width: int | None = None, names: Sequence[str] | None = None,
                     **env_options: object) -> list[Path]:
    """Play an episode (``env_options``: rules, episode, ...) with the person at ``seat``;
    with ``again``, ask "play again?" after it and play the next seed's (a new deal) until
    the answer is no. ``seed`` is the first deal's (a random one when None, printed so the
    deal can be played again); ``read`` (default :func:`input`, looked up at call time) asks,
    ``write`` (default :func:`print`) shows text, wrapped to ``width`` columns (default: the
    terminal's). ``save_dir`` keeps the record of every finished hand (and match) there.
    ``names`` are the opponents' names to show (default: their specs, or class names).
    Returns the records saved; :class:`QuitGame` when the person quits."""
    if read is None:
        read = input
    if write is None:
        write = print
    game = TerminalGame(seat, opponents, glyphs=glyphs, read=read, write=write,
                        save_dir=None if save_dir is None else Path(save_dir), line_width=width,
                        env_options=dict(env_options))
    if names is not None:
        game.names = list(names)
    if seed is None:
        seed = secrets.randbelow(2**31)
        write(f"deal seed {seed} (--seed {seed} deals it again)")
    while True:
        game.play(seed)
        if not again:
            return game.saved
        while True:
            try:
                answer = read("play again? (y/n)> ").strip().lower()
            except EOFError:
                return game.saved
            if answer in ("y", "yes", "n", "no", *QUIT):
                break
            write("  y or n, please")
        if answer not in ("y", "yes"):
            return game.saved
        seed += 1
