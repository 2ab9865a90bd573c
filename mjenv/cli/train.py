"""``mjenv train``: the training pipeline of the baselines package, found by entry point."""

from __future__ import annotations

import argparse
import importlib

from mjenv.cli.common import CommandError, Subparsers

TRAIN_PIPELINE = "agents.train.pipeline"
"""The training stack, resolved by import string like agent specs: mjenv never imports the
agents package (or torch) itself, and the other commands stay fast."""


def add_parser(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "train", add_help=False, prefix_chars="+",  # every word, flags too, goes through
        help="train a policy: behaviour cloning, PPO self-play, arena evaluation (torch)",
        description="See `mjenv train --help` (the training pipeline).")
    p.add_argument("words", nargs=argparse.REMAINDER)
    p.set_defaults(handler=run, command="train")


def run(args: argparse.Namespace) -> int:
    """Hand the words to the training pipeline (its own parser and --help)."""
    try:
        pipeline = importlib.import_module(TRAIN_PIPELINE)
    except ImportError as exc:
        raise CommandError(f"training needs the train extra (torch): {exc}") from None
    status: int = pipeline.main(args.words)
    return status
