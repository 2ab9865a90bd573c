"""What the commands share: the error that becomes one line (also for a file that cannot be
read or written, a bad seed, an agent that cannot be built, an interruption), the help layout,
and the hand arguments of ``mjenv fan`` and ``mjenv hand`` (melds and win flags)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from mjenv.agent import Agent
    from mjenv.melds import Meld

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What each command module's ``add_parser`` receives."""

USAGE_ERROR = 2
INTERRUPTED = 130
"""The exit status after Ctrl-C: 128 + SIGINT, what a shell reports for a process SIGINT
ended, so scripts (``set -e``, make) stop as they would for any interrupted program."""
_WIND_WORDS = {"EAST": 0, "SOUTH": 1, "WEST": 2, "NORTH": 3}


class CommandError(Exception):
    """An error to report as one line on stderr, with exit status 2."""


def seed_arg(text: str) -> int:
    """A seed argument: a non-negative integer (numpy's generators take no other), said so
    in one line rather than in numpy's words.

    >>> seed_arg("7")
    7
    """
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"seed must be a non-negative integer, got {text!r}")
    return value


def file_error(exc: OSError) -> CommandError:
    """A file or folder that cannot be read or written (permissions, a full disk, a missing
    file), as one line naming it."""
    name = exc.filename if exc.filename is not None else ""
    reason = exc.strerror or str(exc)
    return CommandError(f"{name}: {reason}" if name else reason)


def interrupted(command: str, then: str = "") -> int:
    """Report Ctrl-C (one line on stderr, after the ^C the terminal echoed) and return
    :data:`INTERRUPTED`; ``then`` says what to do next."""
    sys.stderr.write(f"\nmjenv {command}: interrupted{'; ' + then if then else ''}\n")
    return INTERRUPTED


def local_module_hint(specs: Iterable[str]) -> str:
    """When an agent spec names a module that is not importable but lies in the current folder
    (``mymod:MyAgent`` with ``./mymod.py``): a sentence saying why and what to do, else "". The
    ``mjenv`` console script imports from installed packages and ``PYTHONPATH`` only; ``python``
    and ``python -m mjenv`` also search the current folder."""
    from mjenv.agent import parse_spec

    for spec in specs:
        try:
            path, _ = parse_spec(spec)
            top = path.partition(":")[0].split(".")[0]
            if importlib.util.find_spec(top) is not None:
                continue
        except (ValueError, ImportError):
            continue
        here = Path.cwd()
        if (here / f"{top}.py").is_file() or (here / top).is_dir():
            shown = f"{top}.py" if (here / f"{top}.py").is_file() else f"{top}/"
            return (f" ({shown} is in the current folder, but the mjenv command does not import "
                    "from it: run it as PYTHONPATH=. mjenv ..., or python -m mjenv ...)")
    return ""


def agent_from_spec(spec: str) -> Agent:
    """The agent ``spec`` names (:func:`mjenv.agent.make_agent`); CommandError, one line, when
    it cannot be built — whatever the agent raised (a corrupt checkpoint, a bad seed), with the
    hint of :func:`local_module_hint` where it applies."""
    from mjenv.agent import make_agent

    try:
        return make_agent(spec)
    except Exception as exc:  # noqa: BLE001 - whatever the agent raises, one line
        from mjenv.arena.play import agent_failure  # only now: it imports the env

        raise CommandError(agent_failure(spec, exc) + local_module_hint([spec])) from None


class HelpFormatter(argparse.RawDescriptionHelpFormatter,
                    argparse.ArgumentDefaultsHelpFormatter):
    """Descriptions and examples as written, and every option's default in its help (where
    there is one to show: not for required options, switches, or an unset ``None``)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        default = action.default
        if action.required or default is None or default is False or default == [] \
                or default == argparse.SUPPRESS:
            return action.help
        return super()._get_help_string(action)


def add_command(subparsers: Subparsers, name: str, **kwargs: object) -> argparse.ArgumentParser:
    """A subcommand parser with the shared help layout (``command`` names it in errors)."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, formatter_class=HelpFormatter, **kwargs)  # type: ignore[arg-type]
    parser.set_defaults(command=name)
    return parser


def wind(text: str) -> int:
    """A wind given as E/S/W/N, its English name, or 0..3.

    >>> wind("s"), wind("North"), wind("2")
    (1, 3, 2)
    """
    from mjenv.render.text import WIND_LETTERS  # here: mjenv.render loads the table view,
    # which every command would then pay for at start (botzone-bot starts every turn)

    key = text.strip().upper()
    if key in WIND_LETTERS:
        return WIND_LETTERS.index(key)
    if key in _WIND_WORDS:
        return _WIND_WORDS[key]
    if key in ("0", "1", "2", "3"):
        return int(key)
    raise argparse.ArgumentTypeError(f"invalid wind {text!r}: use E, S, W, N or 0..3")


def add_meld_arguments(p: argparse.ArgumentParser) -> None:
    """--chow, --pung, --kong, --added-kong, --concealed-kong (read by :func:`melds_from_args`)."""
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


def add_flag_arguments(p: argparse.ArgumentParser, title: str) -> None:
    """The win flags of the fan calculator, as options named like its keywords."""
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
    flags.add_argument("--seat-wind", type=wind, default=0, metavar="WIND",
                       help="E, S, W, N or 0..3 (0 is E)")
    flags.add_argument("--prevalent-wind", type=wind, default=0, metavar="WIND",
                       help="E, S, W, N or 0..3 (0 is E)")
    flags.add_argument("--flowers", type=int, default=0, metavar="N",
                       help="flowers the winner exposed, 0..8")


def flag_kwargs(args: argparse.Namespace) -> dict[str, bool | int]:
    """The flags given with :func:`add_flag_arguments`, as keyword arguments of the calculator."""
    return {"self_drawn": args.self_drawn, "last_copy": args.last_copy,
            "last_tile": args.last_tile, "kong_win": args.kong_win,
            "seat_wind": args.seat_wind, "prevalent_wind": args.prevalent_wind,
            "flowers": args.flowers}


def _meld_tiles(text: str, kind: str, size: int) -> tuple[int, ...]:
    from mjenv.tiles import parse_tiles

    tiles = parse_tiles(text)
    if kind != "chow" and len(tiles) == 1:
        return tuple(tiles) * size
    if len(tiles) != size:
        raise CommandError(f"--{kind.replace('_', '-')} {text!r}: a {kind} has {size} tiles"
                           + ("" if kind == "chow" else " (or give one tile)"))
    return tuple(tiles)


def melds_from_args(args: argparse.Namespace) -> list[Meld]:
    """The melds given with :func:`add_meld_arguments`; CommandError names a bad one."""
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
