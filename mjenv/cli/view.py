"""``mjenv view``: recorded hands and matches as one self-contained HTML page, or a folder of
records as an index page with a page per record; ``--play`` plays a new hand with agents and
keeps what they report about their decisions (:func:`play_annotated`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjenv.cli.common import (
    CommandError,
    Subparsers,
    add_command,
    agent_from_spec,
    file_error,
    seed_arg,
)

if TYPE_CHECKING:
    from mjenv.agent import Agent
    from mjenv.engine.record import Record

EXAMPLES = """\
examples:
  mjenv view hand.json --out hand.html            # one hand, every tile face up
  mjenv view hand.json --seat 2 --out seat2.html  # as seat 2 saw it: hidden tiles left out
  mjenv view match.json --out match.html          # a match: a hand selector
  mjenv view a.json b.json --out both.html        # several records on one page
  mjenv view runs/records --out runs/records/index.html   # an index + a page per record
  mjenv view --play "policy:runs/demo/ppo/final.pt" rule rule rule --seed 3 \\
      --save-record game.json --out game.html     # play a hand, annotate the decisions

Records are validated and replayed first (mjenv.engine.record). The page needs no network:
open it from disk or mail it. Keys: arrows step, Home / End, space plays, PageUp / PageDown
change the hand. A folder (or --index) writes the index at --out and one page per record
beside it; files in a folder that are not records are skipped. docs/viewer.md has the rest.
"""

RECORD_FORMATS = ("mjenv-hand", "mjenv-match")


def add_parser(subparsers: Subparsers) -> None:
    p = add_command(
        subparsers, "view",
        help="an HTML page of recorded hands (or an index of a folder of records)",
        description="Draw recorded hands or matches as one self-contained HTML page: the\n"
        "table step by step, with controls, the event log, annotations and the result.",
        epilog=EXAMPLES,
    )
    p.add_argument("records", nargs="*", metavar="RECORD",
                   help="hand or match records (JSON), or folders of them")
    p.add_argument("--out", "-o", required=True, metavar="FILE",
                   help="the page to write (with a folder or --index: the index page)")
    p.add_argument("--seat", type=int, choices=range(4), metavar="N",
                   help="show the hands as seat N (0..3) saw them; everything when not given")
    p.add_argument("--index", action="store_true",
                   help="write an index page at --out and one page per record beside it "
                   "(implied when a RECORD is a folder)")
    p.add_argument("--title", help="the page's title (default: the first record's name)")
    play = p.add_argument_group("playing a new hand instead of reading records")
    play.add_argument("--play", nargs=4, metavar="AGENT",
                      help="four agent specs, seats 0..3 (see mjenv.agent); the decisions of "
                      "agents with an explain() method are annotated")
    play.add_argument("--rules", choices=["mcr", "botzone"], default="mcr",
                      help="the rule profile of the new hand")
    play.add_argument("--episode", choices=["hand", "match"], default="hand",
                      help="one hand, or a whole match")
    play.add_argument("--seed", type=seed_arg, default=0,
                      help="the seed of the deal and the agents")
    play.add_argument("--top", type=_positive, default=5,
                      help="how many of the likeliest actions an annotation keeps")
    play.add_argument("--save-record", metavar="FILE",
                      help="also save the played record (with its annotations) as JSON")
    p.set_defaults(handler=run)


# ================================================================ playing with annotations
def play_annotated(agents: Sequence[Agent], *, rules: str = "mcr", episode: str = "hand",
                   seed: int = 0, top: int = 5) -> Record:
    """Play a hand (or a match) with four agents (seats 0..3) and return its record, with an
    ``annotations`` entry for every decision of an agent that explains itself.

    An agent explains itself with a method ``explain(observation, action_mask)`` returning
    ``(probabilities, value)``: its probability for each of the 235 actions (what its ``act``
    samples from, or takes the best of) and its value estimate (or None). The helper asks
    before each ``act`` and stores the ``top`` likeliest actions
    (:func:`mjenv.render.html.annotation`); the record format is in docs/engine.md.
    """
    from mjenv.engine.record import match_record, record_of
    from mjenv.mahjong_env import SEAT_OF, raw_env
    from mjenv.render.html import annotation

    if len(agents) != 4:
        raise ValueError(f"four agents are needed (seats 0..3), got {len(agents)}")
    env = raw_env(rules=rules, episode=episode)
    env.reset(seed=seed)
    for seat, agent in enumerate(agents):
        agent.reset(seat, seed * 4 + seat)
    notes: dict[int, list[dict[str, Any]]] = {}
    for name in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seat = SEAT_OF[name]
        game = env.game
        assert game is not None
        agent = agents[seat]
        explain = getattr(agent, "explain", None)
        if callable(explain):
            probs, value = explain(obs["observation"], obs["action_mask"])
            notes.setdefault(env.hand_index, []).append(
                annotation(len(game.actions), seat, [float(p) for p in probs],
                           None if value is None else float(value), top))
        env.step(int(agent.act(obs["observation"], obs["action_mask"])))
    if env.match is not None:
        record = match_record(env.match)
        for h, hand in enumerate(record["hands"]):
            if notes.get(h):
                hand["annotations"] = notes[h]
        return record
    assert env.game is not None
    record = record_of(env.game)
    if notes.get(0):
        record["annotations"] = notes[0]
    return record


# ================================================================ the command
def _positive(text: str) -> int:
    """A ``--top`` value: a positive integer, said so in one line."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _record_files(names: Sequence[str]) -> tuple[list[Path], bool]:
    """The record files named (a folder: its ``*.json`` records, sorted; files there that are
    not records are skipped with a note) and whether a folder was named."""
    from mjenv.inputs import parse_json  # any file of the folder: untrusted JSON

    files: list[Path] = []
    folder = False
    for name in names:
        path = Path(name)
        if not path.is_dir():
            files.append(path)
            continue
        folder = True
        for candidate in sorted(path.glob("*.json")):
            try:
                data = parse_json(candidate.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = None
            fmt = data.get("format") if isinstance(data, dict) else None
            if fmt in RECORD_FORMATS:
                files.append(candidate)
            else:
                sys.stderr.write(f"mjenv view: skipping {candidate}: not a hand or match "
                                 "record\n")
    return files, folder


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except OSError as exc:  # a record that cannot be read, a page that cannot be written
        raise file_error(exc) from None


def _run(args: argparse.Namespace) -> int:
    from mjenv.render.html import load_sources, sources_of, write_index, write_page

    out = Path(args.out)
    if args.play:
        if args.records:
            raise CommandError("give RECORDs or --play, not both")
        from mjenv.procs import one_thread_env

        one_thread_env()  # before an agent imports torch: one-row forward passes, one core
        record = play_annotated([agent_from_spec(spec) for spec in args.play],
                                rules=args.rules, episode=args.episode, seed=args.seed,
                                top=args.top)
        if args.save_record:
            from mjenv.engine.record import save

            save(record, args.save_record)
        name = Path(args.save_record).name if args.save_record else f"seed {args.seed}"
        sources = sources_of(record, name)
    else:
        if not args.records:
            raise CommandError("nothing to show: give RECORD files or folders, or --play")
        files, folder = _record_files(args.records)
        if not files:
            raise CommandError(f"no hand or match records in {', '.join(args.records)}")
        if args.index or folder:
            pages = write_index(files, out, seat=args.seat, title=args.title)
            print(f"wrote {out} and {len(pages) - 1} record page(s) beside it")
            return 0
        sources = [s for f in files for s in load_sources(f)]
    size = write_page(sources, out, seat=args.seat, title=args.title)
    steps = sum(len(s.game.events) for s in sources)
    print(f"wrote {out}: {len(sources)} hand(s), {steps} steps, {size / 1024:.0f} kB")
    return 0
