"""The command line that the Tianshou, RLlib and TorchRL examples share: its first and last
options and what ``--smoke`` does to the rest.

Why a module: the three built the same parser head (``--smoke``, ``--seed``) and tail
(``--eval-deals``, ``--out``, the smoke override, the ``-smoke`` output folder) by hand, each a
copy of the others. Run as ``python examples/NAME.py``, Python puts examples/ first on the
module path, so ``import _common`` works from any working directory.
"""

from __future__ import annotations

import argparse


def make_parser(doc: str, smoke_help: str = "a few thousand steps (CI)",
                ) -> argparse.ArgumentParser:
    """A parser described by the first paragraph of ``doc`` (the example's docstring), with
    ``--smoke`` and ``--seed``; the example adds its own options, then calls :func:`parse`."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    p.add_argument("--smoke", action="store_true", help=smoke_help)
    p.add_argument("--seed", type=int, default=0)
    return p


def parse(p: argparse.ArgumentParser, out: str, **smoke: object) -> argparse.Namespace:
    """Adds ``--eval-deals`` (arena deals per baseline, 200) and ``--out`` (default ``out``)
    and parses the command line. With ``--smoke``, the options named in ``smoke`` take its
    values (the CI size, whatever the command line said) and the output goes to
    ``OUT-smoke`` unless ``--out`` named another folder."""
    p.add_argument("--eval-deals", type=int, default=200)
    p.add_argument("--out", default=out)
    args = p.parse_args()
    if args.smoke:
        for name, value in smoke.items():
            setattr(args, name, value)
        if args.out == out:
            args.out = out + "-smoke"
    return args
