"""CPU-bound work that depends on what a client sent runs off the event loop.

Parsing a pasted transcript, the rule-based extractor over a long Session and the review rules
over a large Checkpoint take time in proportion to their input. On the event loop, one such
request would stop every other (health checks included) until it finished; in a worker thread
the interpreter switches between it and the loop every few milliseconds, so the server keeps
answering. At most `MAX_CONCURRENT` such jobs run per process; more wait their turn, so a burst
of them cannot take every thread. Each job's input is bounded by the body limit and its walks
are linear, so none runs unbounded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import anyio
import anyio.to_thread

T = TypeVar("T")

MAX_CONCURRENT = 2

_limiter: anyio.CapacityLimiter | None = None


async def off_loop(work: Callable[[], T]) -> T:
    """`work()` in a worker thread, at most `MAX_CONCURRENT` at once in this process."""
    global _limiter  # noqa: PLW0603 (one limiter per process, made inside the running loop)
    if _limiter is None:
        _limiter = anyio.CapacityLimiter(MAX_CONCURRENT)
    return await anyio.to_thread.run_sync(work, limiter=_limiter)
