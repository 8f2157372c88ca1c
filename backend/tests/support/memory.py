"""What Python allocates while something runs: the measure the imports' memory bounds are held to."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager


class Peak:
    bytes = 0
    """The most allocated at once above the level at the start (the test's own data included)."""


@contextmanager
def peak_allocated() -> Iterator[Peak]:
    """Trace every allocation (all threads) while the block runs. Allocations outside Python's
    allocators (a C library's own) are not seen; the imports' are Python objects and buffers."""
    peak = Peak()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        yield peak
        peak.bytes = tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()
