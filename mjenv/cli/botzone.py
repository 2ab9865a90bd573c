"""``mjenv botzone-bot`` and ``mjenv botzone-log``: the Botzone bridge (docs/botzone.md).

Every heavy import happens when a command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mjenv.cli.common import Subparsers, add_command

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
    p.add_argument("--seed", type=int, default=None, help="the agent's seed")
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
    q.add_argument("out", type=Path, help="the file to write")
    q.set_defaults(handler=_run_log)


def _run_bot(args: argparse.Namespace) -> int:
    if args.zip is not None:
        from mjenv.botzone.package import write_zip

        print(write_zip(args.agent, args.zip, keep_running=args.keep_running,
                        encoder=args.encoder))
        return 0
    from mjenv.botzone.bot import run_spec

    return run_spec(args.agent, keep_running=args.keep_running, encoder=args.encoder,
                    seed=args.seed)


def _run_log(args: argparse.Namespace) -> int:
    from mjenv.botzone.logs import load_log, log_json, log_of_record, record_of_log
    from mjenv.engine.record import load_record, save

    if args.direction == "to-record":
        save(record_of_log(load_log(args.src)), args.out)
    else:
        args.out.write_text(log_json(log_of_record(load_record(args.src))), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0
