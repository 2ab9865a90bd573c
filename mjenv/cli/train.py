"""``mjenv train`` and ``mjenv configs``: the training stack, found through its entry points.

mjenv never imports the baselines package (or torch) itself: the ``mjenv.train`` entry points
(:mod:`mjenv.plugins`) name the pipeline's command line and its built-in configs, so the other
commands stay fast and a missing train extra is one line.
"""

from __future__ import annotations

import argparse
import sys

from mjenv.cli.common import Subparsers, add_command, file_error, interrupted

CONFIG_EXAMPLES = """examples:
  mjenv configs                                  # the built-in configs
  mjenv train --config smoke --out runs/smoke     # a built-in config by name
  mjenv train --config my-experiment.toml         # or a file
"""


def add_parser(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "train", add_help=False, prefix_chars="+",  # every word, flags too, goes through
        help="train a policy: behaviour cloning, PPO self-play, arena evaluation (torch)",
        description="See `mjenv train --help` (the training pipeline).")
    p.add_argument("words", nargs=argparse.REMAINDER)
    p.set_defaults(handler=run, command="train")

    q = add_command(
        subparsers, "configs",
        help="list the built-in training configs (mjenv train --config NAME)",
        description="The training configs that ship with the package: use a name with "
        "mjenv train --config NAME, or copy one (--show NAME) to start your own.",
        epilog=CONFIG_EXAMPLES)
    q.add_argument("--show", metavar="NAME", default=None,
                   help="print one config's TOML instead of the list")
    q.set_defaults(handler=run_configs)


RESUME = "re-run the same command to resume"


def run(args: argparse.Namespace) -> int:
    """Hand the words to the training pipeline (its own parser and --help). Ctrl-C and SIGTERM
    end it with one line and the status a shell expects (130, 143): every stage resumes, so
    the line says how; SIGTERM unwinds like Ctrl-C, so the data workers are stopped at once."""
    from mjenv.plugins import train_main
    from mjenv.procs import TERMINATED, Terminated, sigterm_raises

    pipeline = train_main()
    try:
        with sigterm_raises():
            return pipeline(args.words)
    except KeyboardInterrupt:
        return interrupted("train", RESUME)
    except Terminated:
        sys.stderr.write(f"mjenv train: terminated; {RESUME}\n")
        return TERMINATED
    except OSError as exc:  # an --out that cannot be written, a config that cannot be read
        raise file_error(exc) from None


def run_configs(args: argparse.Namespace) -> int:
    from mjenv.plugins import builtin_configs, resolve_config

    if args.show is not None:
        print(resolve_config(args.show).read_text(encoding="utf-8"), end="")
        return 0
    configs = builtin_configs()
    width = max(map(len, configs), default=0)
    for name, description in configs.items():
        print(f"{name:<{width}}  {description}")
    return 0
