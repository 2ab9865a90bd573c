"""A batch's staged counts into its float32 observation rows.

An encoder with counts makes every cell an integer count times a fixed scale (or over a fixed
divisor, for the channels after the scaled ones): :meth:`SeatEncoder.count_scale` and
:meth:`~SeatEncoder.count_divisor`. :func:`counts_to_float` writes those products. Where
``mjenv/_rows.c`` is built (with the compiled modules) it does so in one pass over the rows, with
stores that skip the caches: at N = 1,024 the rows are 12 MB a step, and numpy's cast, multiply
and divide are three passes over memory (docs/vector-performance.md). Elsewhere, or for arrays
that are not contiguous, numpy computes the same float32 values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

_Native = Callable[[Any, Any, Any, Any], None]
try:
    from mjenv._rows import scale_counts as _scale_counts

    native: _Native | None = _scale_counts
    """The C function, or None in the plain-Python install."""
except ImportError:
    native = None


def counts_to_float(counts: npt.NDArray[np.uint8], scale: npt.NDArray[np.float32],
                    divisor: npt.NDArray[np.float32] | None,
                    out: npt.NDArray[np.float32]) -> None:
    """Rows of an encoder's counts (``(n, C, 34)`` uint8) into its float32 observations in
    ``out``: ``scale`` times the first ``len(scale)`` channels, the rest over ``divisor``. The
    same float32 values either way: the cast of a small integer is exact, and a float32 product
    or quotient is the same in numpy and in C (IEEE single precision)."""
    if (native is not None and out.shape == counts.shape and out.dtype == np.float32
            and counts.dtype == np.uint8 and out.flags.c_contiguous
            and counts.flags.c_contiguous and scale.flags.c_contiguous
            and (divisor is None or divisor.flags.c_contiguous)):
        native(counts, scale, divisor, out)
        return
    s = len(scale)
    np.copyto(out, counts)
    np.multiply(out[:, :s], scale, out=out[:, :s])
    if divisor is not None:
        np.divide(out[:, s:], divisor, out=out[:, s:])
