"""The traced high of a drawing, for the tests that hold the demo camera's drawings to a
memory bound (sizes traced by tracemalloc, numpy's arrays included: never the RSS)."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable


def traced_peak(draw: Callable[[], object]) -> int:
    """The traced high of ``draw()`` over the memory before it, in bytes."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        draw()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
