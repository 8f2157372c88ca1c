"""CPU-bound work that depends on what a client sent runs off the event loop, in lanes.

Parsing a pasted transcript, the rule-based extractor over a long Session, the review rules over a
large Checkpoint, checking an imported bundle and counting a context's tokens take time in
proportion to their input. On the event loop, one such request would stop every other (health
checks included) until it finished; in a worker thread the interpreter switches between it and
the loop every few milliseconds, so the server keeps answering.

Each kind of work has a lane of its own with a few threads, so one kind cannot hold the threads
another needs: a client asking for token counts of megabytes of text waits behind its own
counts, not in front of everyone's drafts and reviews, and a long import does not hold up
either. A lane with too many jobs already waiting answers 503 at once (`Busy`) instead of
queueing without end: every waiting job holds its request's body in memory.

When the server begins to stop (`stop_work`, called from `server/app.py` on SIGTERM), new jobs
are refused and running ones end at their next `keep_going()`: every loop over a client's input
calls it now and then, so a stop never waits for a long job to finish. Each job's input is bounded
by a body or import limit and its walks are linear, so none runs unbounded.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from enum import Enum
from typing import TypeVar

import anyio
import anyio.to_thread

from smriti.core.errors import Unavailable

T = TypeVar("T")


class Lane(Enum):
    """Kinds of work, each with its own threads (`LANE_SIZES`)."""

    WORK = "work"
    """Drafting and review rules, merges, verify, transcripts: short jobs a person waits on."""
    COUNT = "count"
    """Token counts of a context, with a model's own tokenizer (`providers/tokenizers.py`)."""
    LONG_COUNT = "long count"
    """Token counts of a context of many characters, which take seconds: they do not hold up
    the usual counts of a few thousand."""
    IMPORT = "import"
    """Checking and reading imported bundles and conversation exports: long, and rare."""


LANE_SIZES: dict[Lane, tuple[int, int]] = {
    Lane.WORK: (2, 64),
    Lane.COUNT: (1, 64),
    Lane.LONG_COUNT: (1, 8),
    Lane.IMPORT: (1, 8),
}
"""Each lane's threads, and how many jobs may wait for one of them."""


class Busy(Unavailable):
    """A lane already has as many jobs waiting as it takes."""

    def __init__(self, lane: Lane) -> None:
        super().__init__(
            f"Too many requests for this kind of work ({lane.value}) are already waiting for the server; "
            "retry in a moment.",
            retry_after_s=1,
        )


class Stopping(Unavailable):
    """The server is stopping: long work ends rather than hold the stop up."""

    def __init__(self) -> None:
        super().__init__("The server is stopping; retry once it is back.", retry_after_s=5)


_stopping = threading.Event()
_limiters: dict[Lane, anyio.CapacityLimiter] = {}


def stop_work() -> None:
    """From now on, refuse new jobs and end running ones at their next `keep_going()`."""
    _stopping.set()


def resume_work() -> None:
    """A server starting in this process takes jobs again (tests build several apps in one)."""
    _stopping.clear()
    _limiters.clear()  # a limiter belongs to the event loop that made it


def keep_going() -> None:
    """Raise `Stopping` once the server has begun to stop. Called every few thousand steps by
    every loop whose length a client controls; cheap enough to call that often."""
    if _stopping.is_set():
        raise Stopping


async def off_loop(work: Callable[[], T], *, lane: Lane = Lane.WORK) -> T:
    """`work()` in one of `lane`'s threads: 503 when the server is stopping or too many jobs
    already wait for the lane."""
    keep_going()
    threads, most_waiting = LANE_SIZES[lane]
    limiter = _limiters.get(lane)
    if limiter is None:  # made inside the running loop, on first use
        limiter = _limiters[lane] = anyio.CapacityLimiter(threads)
    if limiter.statistics().tasks_waiting >= most_waiting:
        raise Busy(lane)

    def started() -> T:
        keep_going()  # it may have begun to stop while this job waited
        return work()

    return await anyio.to_thread.run_sync(started, limiter=limiter)


async def holding_a_connection(work: Callable[[], T]) -> T:
    """`work()` in a worker thread outside the lanes, for work done while a pooled connection and
    its transaction are held (an import's write pass parses its next batch): in a lane it could
    wait behind other clients' long jobs with the connection idle, which PostgreSQL ends after a
    minute and the pool lends to no one meanwhile. How many run at once is bounded by the pool."""
    keep_going()
    return await anyio.to_thread.run_sync(work)
