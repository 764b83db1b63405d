"""The benchmarks' one percentile: nearest rank, numpy-free.

Nearest rank (the smallest sample with at least ``share`` of the samples at or below it) always
reports a latency that was measured, and agrees with what Prometheus-style "p99 under X" claims
mean; ``statistics.quantiles`` interpolates between samples and needs two of them at least.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def percentile(values: Iterable[float], share: float) -> float:
    """The nearest-rank ``share`` percentile (0 < share <= 1) of ``values``; NaN when there are none."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    # A hair below, so that 0.07 * 100 (7.000000000000001 in floats) is rank 7, not 8.
    return ordered[max(0, math.ceil(share * len(ordered) - 1e-9) - 1)]
