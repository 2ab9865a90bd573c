"""Random and targeted hands for differential tests and benchmarks (not used by the game).

The fan calculator, the shanten tables and hand analysis are checked against reference
implementations (PyMahjongGB, brute force) on many hands, and timed on fixed samples; this
package makes those hands. It is kept out of :mod:`mjenv.fans` so that the calculator stays a
small pure-Python package (no numpy) and the generator can grow without touching it.

* :mod:`mjenv.testing.generate`: the machinery — :class:`WinningHand`, physical validation,
  random flags and presentations, builders of every shape, :func:`random_winning_hand`.
* :mod:`mjenv.testing.recipes`: one recipe per entry of the fan table (keyed by fan id) and
  :func:`targeted_hand`, so that rare fans appear in a sample.
* :mod:`mjenv.testing.samples`: seeded lists of hands (:func:`sample_hands`,
  :func:`sample_non_winning`, :func:`sample_tenpai`), pinned by tests and benchmarks.

Every hand is built from tile counts with a ``numpy.random.Generator``; the same seed gives the
same hands.
"""

from mjenv.testing.generate import (
    SHAPES,
    WinningHand,
    random_winning_hand,
    validate_hand,
)
from mjenv.testing.recipes import FAN_NAMES, RECIPES, targeted_hand
from mjenv.testing.samples import sample_hands, sample_non_winning, sample_tenpai

__all__ = [
    "FAN_NAMES",
    "RECIPES",
    "SHAPES",
    "WinningHand",
    "random_winning_hand",
    "sample_hands",
    "sample_non_winning",
    "sample_tenpai",
    "targeted_hand",
    "validate_hand",
]
