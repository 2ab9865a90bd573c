"""``mjenv botzone-bot`` and ``mjenv botzone-log``: the Botzone bridge (docs/botzone.md).

Every heavy import happens when a command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mjenv.cli.common import (
    CommandError,
    Subparsers,
    add_command,
    agent_from_spec,
    file_error,
    interrupted,
    seed_arg,
)

_BOT_EXAMPLES = """examples:
  mjenv botzone-bot --agent greedy --keep-running       # a Botzone bot on stdin/stdout
  echo '{"requests": ["0 1 0"], "responses": []}' | mjenv botzone-bot --agent random
  mjenv botzone-bot --agent policy:runs/bc/final.pt --zip bot.zip   # for a Botzone upload
"""

_LOG_EXAMPLES = """examples:
  mjenv botzone-log to-record game000.json hand.json    # then: mjenv replay hand.json
  mjenv botzone-log from-record hand.json game.json
"""


def add_parser(subparsers: Subparsers) -> None:
    """Register ``botzone-bot`` and ``botzone-log``."""
    p = add_command(
        subparsers, "botzone-bot",
        help="run an agent as a Botzone bot (JSON, simple or keep-running I/O)",
        description="Play one seat of Botzone's Chinese-Standard-Mahjong with an mjenv agent: "
        "requests on stdin, responses on stdout (the input form is recognised: JSON or "
        "simple I/O).",
        epilog=_BOT_EXAMPLES)
    p.add_argument("--agent", required=True, metavar="SPEC", help="an agent spec (mjenv.agent)")
    p.add_argument("--keep-running", action="store_true",
                   help="stay up after each answer (prints >>>BOTZONE_REQUEST_KEEP_RUNNING<<<)")
    p.add_argument("--encoder", default="mjenv-v1", help="the observation encoder")
    p.add_argument("--seed", type=seed_arg, default=None, help="the agent's seed")
    p.add_argument("--zip", type=Path, default=None, metavar="OUT",
                   help="write a zip for a Botzone upload instead of playing")
    p.set_defaults(handler=_run_bot)

    q = add_command(
        subparsers, "botzone-log",
        help="convert Botzone judge logs to mjenv hand records and back",
        description="Convert a Botzone judge log (initdata + requests and replies) to an mjenv "
        "hand record, or a botzone-profile hand record to a judge log.",
        epilog=_LOG_EXAMPLES)
    q.add_argument("direction", choices=["to-record", "from-record"],
                   help="judge log to hand record, or hand record to judge log")
    q.add_argument("src", type=Path, help="the file to read")
    q.add_argument("out", type=Path, help="the file to write (never the input)")
    q.add_argument("--force", action="store_true", help="replace OUT if it exists")
    q.set_defaults(handler=_run_log)


def _run_bot(args: argparse.Namespace) -> int:
    if args.zip is not None:
        from mjenv.botzone.package import write_zip

        try:
            print(write_zip(args.agent, args.zip, keep_running=args.keep_running,
                            encoder=args.encoder))
        except OSError as exc:
            raise file_error(exc) from None
        return 0
    from mjenv.procs import one_thread_env

    one_thread_env()  # before the agent imports torch: one-row forward passes, one core
    from mjenv.botzone.bot import main

    agent = agent_from_spec(args.agent)
    try:
        return main(agent, keep_running=args.keep_running, encoder=args.encoder,
                    seed=args.seed)
    except KeyboardInterrupt:
        return interrupted("botzone-bot")


def _run_log(args: argparse.Namespace) -> int:
    """Convert, refusing to write over the input (or over any existing file without
    ``--force``): a record and its log are not recoverable from each other's failed write."""
    src, out = args.src, args.out
    if out.exists():
        if src.exists() and src.samefile(out):
            raise CommandError(f"{out} is the input: give another output file")
        if not args.force:
            raise CommandError(f"{out} exists: give another output file, or --force to "
                               "replace it")
    from mjenv.botzone.logs import load_log, log_json, log_of_record, record_of_log
    from mjenv.engine.record import load_record, save

    try:
        if args.direction == "to-record":
            save(record_of_log(load_log(src)), out)
        else:
            out.write_text(log_json(log_of_record(load_record(src))), encoding="utf-8")
    except OSError as exc:
        raise file_error(exc) from None
    print(f"wrote {out}")
    return 0
