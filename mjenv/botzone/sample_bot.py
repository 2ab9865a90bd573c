"""A small Botzone bot that plays at random among its legal actions (a win whenever it can):
``python -m mjenv.botzone.sample_bot [--keep-running] [--seed N]``.

It is mjenv's own bot side (mjenv.botzone.bot) with a random chooser, so it speaks every I/O
form the platform uses (JSON, simple, keep-running). It is the opponent the tests run as a
real subprocess through :class:`mjenv.botzone.program_agent.BotzoneProgramAgent`.
"""

from __future__ import annotations

import argparse

import numpy as np

from mjenv import actions as A
from mjenv.botzone.bot import main as run_bot


class RandomLegal:
    """A win when legal, else a uniform choice among the legal actions."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng()

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if action_mask[A.WIN]:
            return A.WIN
        return int(self.rng.choice(np.flatnonzero(action_mask)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep-running", action="store_true")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    return run_bot(RandomLegal(), keep_running=args.keep_running, seed=args.seed)


if __name__ == "__main__":
    raise SystemExit(main())
