"""mjenv: a reinforcement-learning environment for Chinese Official Mahjong (MCR, 国标麻将).

The package is layered (see ``docs/`` and the architecture notes): ``mjenv.tiles`` (tile ids,
codes, glyphs, compact notation) -> ``mjenv.melds`` -> ``mjenv.decompose`` (win detection,
waiting tiles) -> ``mjenv.fans`` (the fan calculator) and ``mjenv.shanten`` -> ``mjenv.analysis``
(scored waits, best discards) -> ``mjenv.engine`` (one hand, a match). ``mjenv.cli`` is the
``mjenv`` command.

``import mjenv`` is kept light: nothing heavy (numpy, the fan tables) loads until it is used.
``mjenv.calculate`` is a lazy alias of :func:`mjenv.fans.calculate`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["__version__", "calculate"]

if TYPE_CHECKING:
    from mjenv.fans import calculate


def __getattr__(name: str) -> Any:
    if name == "calculate":
        from mjenv.fans import calculate

        return calculate
    raise AttributeError(f"module 'mjenv' has no attribute {name!r}")
