"""The ``mjenv`` command line: one command, one subcommand per job.

    mjenv --version
    mjenv fan "1112345678999m" --win 5m --self-drawn   # score one hand, print a table
    mjenv fan --jsonl < requests.jsonl                 # JSON Lines, as python -m mjenv.fans
    mjenv hand "123m456s789p11225z" --seen 1z          # shanten, useful tiles, discards, waits
    mjenv replay hand.json --seat 2                    # a recorded hand, move by move

A subcommand is a function that adds its parser (``_add_fan``) and a handler that takes the
parsed arguments and returns the exit status. Heavy modules are imported inside handlers, so
``mjenv --version`` and ``mjenv --help`` stay fast.
"""

from __future__ import annotations

import argparse
import io
import sys
import unicodedata
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mjenv import __version__

if TYPE_CHECKING:
    from mjenv.analysis import HandAnalysis, Wait
    from mjenv.engine.events import Event
    from mjenv.engine.game import Game
    from mjenv.fans import FanResult
    from mjenv.melds import Meld

USAGE_ERROR = 2
WIND_NAMES = ("E", "S", "W", "N")
_WIND_WORDS = {"EAST": 0, "SOUTH": 1, "WEST": 2, "NORTH": 3}


class CommandError(Exception):
    """An error to report as one line on stderr, with exit status 2."""


# ---------------------------------------------------------------- fan


def _wind(text: str) -> int:
    key = text.strip().upper()
    if key in WIND_NAMES:
        return WIND_NAMES.index(key)
    if key in _WIND_WORDS:
        return _WIND_WORDS[key]
    if key in ("0", "1", "2", "3"):
        return int(key)
    raise argparse.ArgumentTypeError(f"invalid wind {text!r}: use E, S, W, N or 0..3")


_FAN_EXAMPLES = """\
examples:
  mjenv fan "1112345678999m" --win 5m --self-drawn
  mjenv fan "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9 W5" --self-drawn   # last tile = win
  mjenv fan "34p66z" --kong 5m --kong 7p --concealed-kong 2s --win 5p --self-drawn --kong-win
  mjenv fan --jsonl < requests.jsonl

tiles: codes (W1..W9 T1..T9 B1..B9 F1..F4 J1..J3), glyphs, or the compact notation
  123m456s789p11z: m = W, s = T, p = B, 1z-4z = E S W N, 5z = 白 J3, 6z = 发 J2, 7z = 中 J1
"""


def _add_fan(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "fan",
        help="score a winning hand (fan calculator)",
        description="Score one winning hand and print its fans, or with --jsonl serve a "
        "JSON Lines stream of hands (the same as python -m mjenv.fans).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_FAN_EXAMPLES,
    )
    p.add_argument(
        "hand",
        nargs="*",
        help="the concealed tiles; without --win the last tile listed is the winning tile",
    )
    p.add_argument("--jsonl", action="store_true",
                   help="read JSON Lines requests on stdin, write one JSON answer per line")
    p.add_argument("--win", metavar="TILE", help="the winning tile (not part of HAND)")
    _add_meld_arguments(p)
    _add_flag_arguments(p, "how the hand was won")
    p.set_defaults(handler=_run_fan, command="fan")


def _add_meld_arguments(p: argparse.ArgumentParser) -> None:
    """--chow, --pung, --kong, --added-kong, --concealed-kong (read by _melds_from_args)."""
    melds = p.add_argument_group("melds (repeatable; supplier and claimed tile do not matter here)")
    melds.add_argument("--chow", action="append", default=[], metavar="TILES",
                       help="an exposed chow, e.g. 123m or 'W1 W2 W3'")
    melds.add_argument("--pung", action="append", default=[], metavar="TILE",
                       help="an exposed pung, e.g. 5z or 555z")
    melds.add_argument("--kong", action="append", default=[], metavar="TILE",
                       help="an exposed kong from a discard, e.g. 1p")
    melds.add_argument("--added-kong", action="append", default=[], metavar="TILE",
                       help="an added kong (pung upgraded with its fourth tile), e.g. 9s")
    melds.add_argument("--concealed-kong", action="append", default=[], metavar="TILE",
                       help="a concealed kong, e.g. 7z")


def _add_flag_arguments(p: argparse.ArgumentParser, title: str) -> None:
    """The win flags of the fan calculator, as keyword arguments of the same names."""
    flags = p.add_argument_group(title)
    flags.add_argument("--self-drawn", action="store_true",
                       help="the winning tile was drawn (自摸)")
    flags.add_argument("--last-copy", action="store_true",
                       help="the other three copies were visible (和绝张)")
    flags.add_argument("--last-tile", action="store_true",
                       help="the last tile of the wall, or the discard after it "
                       "(妙手回春 / 海底捞月)")
    flags.add_argument("--kong-win", action="store_true",
                       help="kong replacement (杠上开花) when self-drawn, robbing a kong (抢杠和) "
                       "otherwise")
    flags.add_argument("--seat-wind", type=_wind, default=0, metavar="WIND",
                       help="E, S, W, N or 0..3 (default E)")
    flags.add_argument("--prevalent-wind", type=_wind, default=0, metavar="WIND",
                       help="E, S, W, N or 0..3 (default E)")
    flags.add_argument("--flowers", type=int, default=0, metavar="N",
                       help="flowers the winner exposed, 0..8")


def _flag_kwargs(args: argparse.Namespace) -> dict[str, bool | int]:
    """The flags given with _add_flag_arguments, as keyword arguments of the calculator."""
    return {"self_drawn": args.self_drawn, "last_copy": args.last_copy,
            "last_tile": args.last_tile, "kong_win": args.kong_win,
            "seat_wind": args.seat_wind, "prevalent_wind": args.prevalent_wind,
            "flowers": args.flowers}


def _describe_flags(args: argparse.Namespace) -> str:
    how = ["self-drawn" if args.self_drawn else "discard"]
    if args.last_copy:
        how.append("last copy")
    if args.last_tile:
        how.append("last tile")
    if args.kong_win:
        how.append("kong replacement" if args.self_drawn else "robbing a kong")
    how.append(f"seat wind {WIND_NAMES[args.seat_wind]}")
    how.append(f"prevalent wind {WIND_NAMES[args.prevalent_wind]}")
    how.append(f"flowers {args.flowers}")
    return ", ".join(how)


def _meld_tiles(text: str, kind: str, size: int) -> tuple[int, ...]:
    from mjenv.tiles import parse_tiles

    tiles = parse_tiles(text)
    if kind != "chow" and len(tiles) == 1:
        return tuple(tiles) * size
    if len(tiles) != size:
        raise CommandError(f"--{kind.replace('_', '-')} {text!r}: a {kind} has {size} tiles"
                           + ("" if kind == "chow" else " (or give one tile)"))
    return tuple(tiles)


def _melds_from_args(args: argparse.Namespace) -> list[Meld]:
    from mjenv.melds import Meld

    melds: list[Meld] = []
    for kind, size, texts in (
        ("chow", 3, args.chow),
        ("pung", 3, args.pung),
        ("kong", 4, args.kong),
        ("added_kong", 4, args.added_kong),
        ("concealed_kong", 4, args.concealed_kong),
    ):
        for text in texts:
            tiles = _meld_tiles(text, kind, size)
            try:
                melds.append(Meld(kind, tiles))
            except ValueError as exc:
                raise CommandError(f"--{kind.replace('_', '-')} {text!r}: {exc}") from None
    return melds


def _run_fan(args: argparse.Namespace) -> int:
    if args.jsonl:
        given = [name for name, value in (
            ("HAND", args.hand), ("--win", args.win), ("--chow", args.chow),
            ("--pung", args.pung), ("--kong", args.kong), ("--added-kong", args.added_kong),
            ("--concealed-kong", args.concealed_kong),
        ) if value]
        if given:
            raise CommandError(f"--jsonl reads every hand from stdin; do not give {given[0]}")
        from mjenv.fans.jsonl import run_stdio

        return run_stdio()

    from mjenv.tiles import parse_tiles

    if not args.hand:
        raise CommandError('give a hand, e.g. mjenv fan "1112345678999m" --win 5m --self-drawn '
                           "(or --jsonl to read JSON Lines on stdin)")
    text = " ".join(args.hand)
    tiles = parse_tiles(text)
    melds = _melds_from_args(args)
    if args.win is not None:
        win_tiles = parse_tiles(args.win)
        if len(win_tiles) != 1:
            raise CommandError(f"--win takes one tile, got {args.win!r}")
        win = win_tiles[0]
    else:
        if len(tiles) % 3 != 2:
            raise CommandError(
                f"{len(tiles)} tiles given without --win: list the winning tile last "
                f"({14 - 3 * len(melds)} tiles with {len(melds)} meld(s)) or give it with --win"
            )
        win = tiles.pop()

    from mjenv.fans import NotWinError, calculate

    try:
        result = calculate(tiles, melds, win, **_flag_kwargs(args))
    except NotWinError as exc:
        detail = str(exc)
        raise CommandError("not a winning hand" + (f": {detail}" if detail else "")) from None
    sys.stdout.write(format_result(result, tiles, melds, win, args))
    return 0


# ---------------------------------------------------------------- hand

_HAND_EXAMPLES = """\
examples:
  mjenv hand "1112345678999m" --self-drawn      # ready: its waits and what each scores
  mjenv hand "123m456s789p1122z5z"              # 14 tiles: the best discards first
  mjenv hand "2356m48s13579p12z" --seen "1z 1z 4s"
  mjenv hand "3455m7p66z" --chow 123p --pung 9s --seat-wind S

useful tiles are shown as TILE:N, N the copies still unseen (not in the hand and melds,
not among --seen); "held" marks a kind whose four copies are all the player's own.
"""


def _add_hand(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "hand",
        help="shanten, useful tiles, best discards and scored waits of a hand",
        description="Analyse a hand of 13 - 3*melds standing tiles (or 14 - 3*melds, before a\n"
        "discard): shanten per shape (0 = ready, -1 = complete), the useful tiles with the\n"
        "copies still unseen, for 14 tiles every discard best first, and for a ready hand\n"
        "its winning tiles with the points each would score under the flags given.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_HAND_EXAMPLES,
    )
    p.add_argument("hand", nargs="*", help="the standing tiles")
    p.add_argument("--seen", metavar="TILES",
                   help="tiles seen on the table besides the own hand and melds (discards, "
                   "other players' melds); they lower the unseen counts")
    _add_meld_arguments(p)
    _add_flag_arguments(p, "how a wait would be won (for the scores of the waits)")
    p.set_defaults(handler=_run_hand, command="hand")


def _run_hand(args: argparse.Namespace) -> int:
    if not args.hand:
        raise CommandError('give a hand, e.g. mjenv hand "1112345678999m" --self-drawn')
    from mjenv.analysis import analyze_hand
    from mjenv.tiles import parse_tiles

    tiles = parse_tiles(" ".join(args.hand))
    melds = _melds_from_args(args)
    report = analyze_hand(tiles, melds, seen=args.seen, **_flag_kwargs(args))
    sys.stdout.write(format_hand(report, tiles, melds, args))
    return 0


def _useful_text(useful: Sequence[int], drawable: Sequence[int], unseen: Sequence[int]) -> str:
    from mjenv.tiles import format_tiles

    left: dict[int, int | str] = dict(zip(drawable, unseen, strict=True))
    parts = [f"{format_tiles([t])}:{left.get(t, 'held')}" for t in useful]
    return " ".join(parts) if parts else "-"


def _waits_text(waits: Sequence[Wait]) -> str:
    from mjenv.tiles import format_tiles

    parts = []
    for w in waits:
        if w.result is None:
            parts.append(f"{format_tiles([w.tile])} impossible")
        else:
            mark = "" if w.meets_minimum else " (<8)"
            parts.append(f"{format_tiles([w.tile])} {w.result.total}{mark}")
    return ", ".join(parts)


def format_hand(report: HandAnalysis, hand: Sequence[int], melds: Sequence[Meld],
                args: argparse.Namespace) -> str:
    """The readable report of ``mjenv hand``."""
    from mjenv.shanten import SHAPE_NAMES
    from mjenv.tiles import format_tiles, parse_tiles

    result = report.shanten
    lines = [f"hand     {format_tiles(sorted(hand))}   {format_tiles(sorted(hand), 'glyphs')}"]
    if melds:
        lines.append("melds    " + ", ".join(
            f"{m.kind.replace('_', ' ')} {format_tiles(m.tiles)}" for m in melds))
    if args.seen:
        lines.append(f"seen     {format_tiles(sorted(parse_tiles(args.seen)))}")
    if result.discard_first:
        state = ("complete (-1): a winning hand, score it with mjenv fan" if result.shanten < 0
                 else f"{result.shanten} after the best discard"
                 + (" (ready)" if result.shanten == 0 else ""))
    else:
        state = {0: "0: ready"}.get(result.shanten, f"{result.shanten}")
    lines.append(f"shanten  {state}")
    lines.append("")

    name_w = max(len(SHAPE_NAMES[e.shape]) for e in result.shapes)
    header = f"{'shape':<{name_w}}  shanten" + ("" if result.discard_first else
                                              "  useful tiles:unseen")
    lines.append(header)
    lines.append("-" * len(header))
    for e in result.shapes:
        row = f"{SHAPE_NAMES[e.shape]:<{name_w}}  {e.shanten:>7}"
        if not result.discard_first:
            row += f"  {_useful_text(e.useful, e.drawable, e.unseen)}"
        lines.append(row)
    if not result.discard_first:
        lines.append("")
        lines.append(f"useful tiles ({len(result.useful)} kinds, {result.unseen_total} unseen "
                     f"copies): {_useful_text(result.useful, result.drawable, result.unseen)}")
    if report.waits:
        lines.append("")
        lines.append(f"waits and their points (win: {_describe_flags(args)})")
        rows = [("tile", "unseen", "points", "8-point minimum", "fans")]
        for w in report.waits:
            if w.result is None:
                rows.append((format_tiles([w.tile]), str(w.unseen), "-", "-", w.why_not))
            else:
                rows.append((format_tiles([w.tile]), str(w.unseen), str(w.result.total),
                             "met" if w.meets_minimum else "NOT met", str(w.result)))
        lines.extend(_table(rows, right=(1, 2)))
    if report.discards:
        lines.append("")
        lines.append("discards, best first (shanten left, then unseen useful copies)")
        rows = [("discard", "shanten", "kinds", "unseen", "useful tiles:unseen")]
        for d in report.discards:
            rows.append((format_tiles([d.tile]), str(d.shanten), str(len(d.useful)),
                         str(d.unseen), _useful_text(d.useful, d.drawable, d.after.unseen)))
        lines.extend(_table(rows, right=(1, 2, 3)))
        ready = [d for d in report.discards if d.waits]
        if ready:
            lines.append("")
            lines.append(f"waits after a discard that leaves the hand ready, with their points "
                         f"((<8): below the minimum; win: {_describe_flags(args)})")
            for d in ready:
                lines.append(f"  discard {format_tiles([d.tile])}: {_waits_text(d.waits)}")
    return "\n".join(lines) + "\n"


def _table(rows: Sequence[tuple[str, ...]], right: tuple[int, ...] = ()) -> list[str]:
    widths = [max(_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for n, row in enumerate(rows):
        cells = []
        for i, cell in enumerate(row):
            last = i == len(row) - 1
            if i in right:
                cells.append(" " * (widths[i] - _width(cell)) + cell)
            else:
                cells.append(cell if last else _ljust(cell, widths[i]))
        out.append("  ".join(cells).rstrip())
        if n == 0:
            out.append("-" * _width(out[0]))
    return out


# ---------------------------------------------------------------- replay

_REPLAY_EXAMPLES = """\
examples:
  mjenv replay hand.json            # everything, every tile face up
  mjenv replay hand.json --seat 2   # as seat 2 saw it: others' draws and concealed kongs hidden

The record is validated and replayed first (mjenv.engine.record); a record that does not
replay to its own events and result is an error. Hidden tiles are shown as ??; the final
event reveals every concealed kong and the last lines show every hand ([...]c: concealed kong).
"""


def _add_replay(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "replay",
        help="print a recorded hand move by move (all of it, or as one seat saw it)",
        description="Validate and replay a hand record (JSON, format mjenv-hand) and print it\n"
        "event by event, then the result.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_REPLAY_EXAMPLES,
    )
    p.add_argument("file", metavar="FILE", help="a hand record (JSON)")
    p.add_argument("--seat", type=int, choices=range(4), metavar="N",
                   help="show the hand as seat N (0..3) saw it")
    p.set_defaults(handler=_run_replay, command="replay")


def _run_replay(args: argparse.Namespace) -> int:
    from mjenv.engine.record import load

    game = load(args.file)
    sys.stdout.write(format_replay(game, args.seat))
    return 0


def _event_text(event: Event) -> str:
    """One event as a line: ``draws W3``, ``pungs B5 from seat 2``, ``draws ??`` (hidden)."""
    from mjenv.engine import events as E
    from mjenv.tiles import tile_code

    def tile(t: int) -> str:
        return "??" if t == E.HIDDEN else tile_code(t)

    if isinstance(event, E.Deal):
        return ("is dealt " + " ".join(tile(t) for t in event.tiles) if event.tiles
                else "is dealt 13 tiles")
    if isinstance(event, E.Flower):
        return f"exposes flower {tile(event.tile)}" + (" (initial)" if event.initial else "")
    if isinstance(event, E.Draw):
        return f"draws {tile(event.tile)}" + (" from the tail" if event.replacement else "")
    if isinstance(event, E.Discard):
        return f"discards {tile(event.tile)}"
    if isinstance(event, E.Chow):
        return (f"chows {' '.join(tile(t) for t in event.tiles)} (claims {tile(event.claimed)} "
                f"from seat {event.from_seat})")
    if isinstance(event, E.Pung):
        return f"pungs {tile(event.tile)} from seat {event.from_seat}"
    if isinstance(event, E.Kong):
        return f"kongs {tile(event.tile)} from seat {event.from_seat}"
    if isinstance(event, E.AddedKong):
        return f"adds {tile(event.tile)} to its pung (added kong)"
    if isinstance(event, E.ConcealedKong):
        return f"declares a concealed kong of {tile(event.tile)}"
    if isinstance(event, E.Win | E.DrawGame | E.Penalty):
        kongs = "; ".join(f"seat {s} {' '.join(tile(t) for t in ts)}"
                          for s, ts in enumerate(event.revealed) if ts)
        shown = f"; concealed kongs revealed: {kongs}" if kongs else ""
        if isinstance(event, E.Win):
            how = ("self-drawn" if event.from_seat is None
                   else f"robbing seat {event.from_seat}'s kong" if event.robbed
                   else f"on seat {event.from_seat}'s discard")
            return f"wins on {tile(event.tile)}, {how}: {event.fan_total} points{shown}"
        if isinstance(event, E.DrawGame):
            return f"ends the hand: the wall is exhausted (draw){shown}"
        return f"declared a false win: penalized{shown}"
    return repr(event)


def format_replay(game: Game, seat: int | None) -> str:
    """The readable move-by-move text of ``mjenv replay``."""
    from mjenv.engine.events import view
    from mjenv.engine.record import PENALIZE_NAME, rules_json
    from mjenv.tiles import tile_code

    rules = ", ".join(f"{k} {v}" for k, v in rules_json(game.rules).items())
    seed = "none" if game.wall.seed is None else str(game.wall.seed)
    lines = [f"hand     rules: {rules}; dealer seat {game.dealer}; prevalent wind "
             f"{WIND_NAMES[game.prevalent_wind]}; seed {seed} (informative)",
             f"actions  {len(game.actions)}"
             + (f" ({PENALIZE_NAME} included)" if any(a < 0 for _, a in game.actions) else ""),
             "view     " + ("everything" if seat is None else
                            f"seat {seat} (others' drawn tiles and concealed kongs hidden "
                            "until the end)"),
             ""]
    last = len(game.events) - 1
    for i, event in enumerate(game.events):
        shown = event if seat is None else view(event, seat, over=game.is_over and i == last)
        wind = WIND_NAMES[game.seat_wind(event.seat)]
        lines.append(f"{i + 1:4}  seat {event.seat} ({wind})  {_event_text(shown)}")
    lines.append("")
    r = game.result
    if r is None:
        lines.append("result   the hand is not over")
    elif r.winner is not None:
        fans = ", ".join(f"{zh} x{n}" if n > 1 else zh for zh, n in r.fans)
        how = "self-drawn" if r.self_drawn else f"from seat {r.from_seat}"
        win = tile_code(r.win_tile) if r.win_tile is not None else "?"
        lines.append(f"result   seat {r.winner} wins on {win} ({how}"
                     f"{', robbing a kong' if r.robbed else ''}): {r.fan_total} points")
        lines.append(f"fans     {fans}")
    elif r.penalized is not None:
        lines.append(f"result   seat {r.penalized} penalized for a false win")
    else:
        lines.append("result   draw (wall exhausted)")
    if r is not None:
        lines.append("payments " + "  ".join(f"seat {s} {p:+d}" for s, p in enumerate(r.payments)))
        lines.append("")
        lines.append("final hands")
        for s in range(4):
            melds = " ".join("[" + " ".join(tile_code(t) for t in m.tiles) + "]"
                             + ("c" if m.kind == "concealed_kong" else "")
                             for m in game.melds[s])
            flowers = " ".join(tile_code(t) for t in game.flowers[s])
            text = " ".join(tile_code(t) for t in game.hand_tiles(s))
            lines.append(f"  seat {s}  {text}" + (f"  melds {melds}" if melds else "")
                         + (f"  flowers {flowers}" if flowers else ""))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- table


def _width(text: str) -> int:
    """Terminal columns of ``text`` (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _ljust(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def format_result(
    result: FanResult,
    hand: Sequence[int],
    melds: Sequence[Meld],
    win: int,
    args: argparse.Namespace,
) -> str:
    """The readable report of one scored hand."""
    from mjenv.tiles import format_tiles

    lines: list[str] = []
    hand_text = format_tiles(sorted(hand))
    win_text = format_tiles([win])
    lines.append(f"hand     {hand_text} + {win_text}   "
                 f"{format_tiles(sorted(hand), 'glyphs')} {format_tiles([win], 'glyphs')}")
    if melds:
        lines.append("melds    " + ", ".join(
            f"{m.kind.replace('_', ' ')} {format_tiles(m.tiles)}" for m in melds))
    lines.append("win      " + _describe_flags(args))
    lines.append("")

    zh_w = max([_width("fan"), *(_width(e.zh) for e in result.fans)])
    en_w = max([len("english"), *(len(e.en) for e in result.fans)])
    header = f"{_ljust('fan', zh_w)}  {'english':<{en_w}}  points  count  total"
    lines.append(header)
    lines.append("-" * _width(header))
    for e in result.fans:
        lines.append(f"{_ljust(e.zh, zh_w)}  {e.en:<{en_w}}  {e.points:>6}  {e.count:>5}  "
                     f"{e.total:>5}")
    lines.append("-" * _width(header))
    lines.append(f"{_ljust('total', zh_w + en_w + 2)}  {'':>6}  {'':>5}  {result.total:>5}")
    without = result.total - result.flowers
    if result.meets_minimum:
        verdict = f"met ({without} points without flowers): a legal win"
    else:
        verdict = f"NOT met ({without} points without flowers): not a legal win"
    lines.append(f"8-point minimum: {verdict}")
    lines.append("")
    lines.append(f"decomposition ({result.shape.replace('_', ' ')})")
    for group in result.decomposition:
        state = "concealed" if group.concealed else "exposed"
        lines.append(f"  {group.kind.replace('_', ' '):<14} {format_tiles(group.tiles):<12} "
                     f"{state}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- play
def _add_play(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "play",
        help="play a seat in the terminal against agents",
        description="Play one hand (or a match) at one seat against three agents. The legal "
        "moves are listed by number and name; answer with the number, the name, or a tile "
        "code to discard it. q quits.",
    )
    p.add_argument("--seat", type=int, choices=range(4), default=0, metavar="N",
                   help="your seat, 0..3 (default 0)")
    p.add_argument("--opponents", nargs="+", default=["random"], metavar="SPEC",
                   help="one agent spec for all three, or three (default: random)")
    p.add_argument("--rules", choices=["mcr", "botzone"], default="mcr")
    p.add_argument("--episode", choices=["hand", "match"], default="hand")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--codes", action="store_true", help="tile codes instead of glyphs")
    p.set_defaults(handler=_run_play, command="play")


def _run_play(args: argparse.Namespace) -> int:
    from mjenv.play import QuitGame, play_in_terminal

    opponents = args.opponents * 3 if len(args.opponents) == 1 else args.opponents
    if len(opponents) != 3:
        raise CommandError("give one opponent spec or three")
    try:
        play_in_terminal(args.seat, opponents, seed=args.seed, glyphs=not args.codes,
                         rules=args.rules, episode=args.episode)
    except QuitGame:
        print("bye")
    return 0


# ---------------------------------------------------------------- arena
_ARENA_EXAMPLES = """examples:
  mjenv arena --agents greedy random --deals 2000 --out runs/greedy-vs-random
  mjenv arena --mode four --agents rule greedy random "random seed=7" --rotations all \\
      --deals 500 --out runs/four --workers 2
  mjenv arena --agents rule greedy --deals 2000 --backend ray --out runs/ray

Re-running the same command resumes the run in --out; a different configuration there is
refused. Output: results.json, hands.csv, manifest.json, PNG plots (docs/arena.md).
"""


def _add_arena(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "arena",
        help="compare agents on duplicate deals (confidence intervals, plots, resumable)",
        description="Play agents against each other on duplicate deals: every deal is "
        "replayed with the agents rotated through the seats, so luck cancels.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_ARENA_EXAMPLES,
    )
    p.add_argument("--agents", nargs="+", required=True, metavar="SPEC",
                   help="1v3: challenger and baseline; four: four specs")
    p.add_argument("--mode", choices=["1v3", "four"], default="1v3")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rules", choices=["mcr", "botzone"], default="mcr")
    p.add_argument("--episode", choices=["hand", "match"], default="hand")
    p.add_argument("--rotations", choices=["cyclic", "all"], default="cyclic",
                   help="four mode: 4 cyclic rotations or all 24 seatings per deal")
    p.add_argument("--out", required=True, metavar="DIR", help="the run's folder")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--backend", choices=["process", "ray"], default="process")
    p.add_argument("--ray-address", default=None, metavar="ADDR",
                   help="a Ray cluster (default: a local Ray)")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(handler=_run_arena, command="arena")


def _run_arena(args: argparse.Namespace) -> int:
    from mjenv.arena import ArenaConfig, run_arena
    from mjenv.arena.runner import print_table

    config = ArenaConfig(agents=tuple(args.agents), mode=args.mode, deals=args.deals,
                         seed=args.seed, rules=args.rules, episode=args.episode,
                         rotations=args.rotations)
    results = run_arena(config, args.out, workers=args.workers, backend=args.backend,
                        ray_address=args.ray_address, progress=not args.no_progress)
    print(print_table(results))
    print(f"\nresults, hands and plots in {args.out}")
    return 0


# ---------------------------------------------------------------- train

def _add_train(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "train", add_help=False, prefix_chars="+",  # every word, flags too, goes through
        help="train a policy: behaviour cloning, PPO self-play, arena evaluation (torch)",
        description="See `mjenv train --help` (agents.train.pipeline).")
    p.add_argument("words", nargs=argparse.REMAINDER)
    p.set_defaults(handler=_run_train, command="train")


TRAIN_PIPELINE = "agents.train.pipeline"
"""The training stack, resolved by import string like agent specs: mjenv never imports the
agents package (or torch) itself, and the other commands stay fast."""


def _run_train(args: argparse.Namespace) -> int:
    """Hand the words to the training pipeline (its own parser and --help)."""
    import importlib

    try:
        pipeline = importlib.import_module(TRAIN_PIPELINE)
    except ImportError as exc:
        raise CommandError(f"training needs the train extra (torch): {exc}") from None
    status: int = pipeline.main(args.words)
    return status


# ---------------------------------------------------------------- main

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mjenv",
        description="mjenv: a reinforcement-learning environment for Chinese Official Mahjong "
        "(MCR, 国标麻将).",
    )
    parser.add_argument("--version", action="version", version=f"mjenv {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    _add_fan(subparsers)
    _add_hand(subparsers)
    _add_replay(subparsers)
    _add_play(subparsers)
    _add_arena(subparsers)
    _add_train(subparsers)
    from mjenv.botzone.cli import add_commands as _add_botzone  # botzone-bot, botzone-log

    _add_botzone(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``mjenv`` command; returns the exit status (2 for usage and input errors)."""
    parser = build_parser()
    args = parser.parse_args(None if argv is None else list(argv))
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return USAGE_ERROR
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")  # glyphs on a terminal that lacks them
    try:
        return handler(args)
    except (CommandError, ValueError) as exc:  # bad tiles, invalid hands and flags
        sys.stderr.write(f"mjenv {args.command}: error: {exc}\n")
        return USAGE_ERROR


if __name__ == "__main__":
    raise SystemExit(main())
