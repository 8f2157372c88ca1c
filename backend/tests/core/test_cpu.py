"""Work off the event loop (core/cpu.py): lanes keep one kind of work from holding another's
threads, a lane refuses jobs past what may wait, and a stop ends long work at once."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest

from smriti.core import cpu
from smriti.core.cpu import Busy, Lane, Stopping, keep_going, off_loop


@pytest.fixture(autouse=True)
def fresh_lanes() -> Iterator[None]:
    cpu.resume_work()
    yield
    cpu.resume_work()


def _held(release: threading.Event) -> None:
    """A job that holds its thread until released, checking for a stop as long work does."""
    while not release.wait(0.01):
        keep_going()


async def test_token_counts_do_not_hold_up_other_work() -> None:
    """Counts fill their own lane; a draft's or review's job still runs at once."""
    release = threading.Event()
    counts = [asyncio.create_task(off_loop(lambda: _held(release), lane=Lane.COUNT)) for _ in range(4)]
    await asyncio.sleep(0.05)
    try:
        assert await asyncio.wait_for(off_loop(lambda: "reviewed"), timeout=5) == "reviewed"
        assert await asyncio.wait_for(off_loop(lambda: "imported", lane=Lane.IMPORT), timeout=5) == "imported"
        assert not any(task.done() for task in counts)  # one thread, the rest waiting
    finally:
        release.set()
        await asyncio.gather(*counts)


async def test_a_lane_with_too_many_waiting_refuses_at_once() -> None:
    threads, most_waiting = cpu.LANE_SIZES[Lane.COUNT]
    release = threading.Event()
    jobs = [
        asyncio.create_task(off_loop(lambda: _held(release), lane=Lane.COUNT)) for _ in range(threads + most_waiting)
    ]
    await asyncio.sleep(0.05)
    try:
        with pytest.raises(Busy) as refused:
            await off_loop(lambda: None, lane=Lane.COUNT)
        assert refused.value.status_code == 503
        assert (refused.value.retry_after_s or 0) >= 1
    finally:
        release.set()
        await asyncio.gather(*jobs)
    assert await off_loop(lambda: "taken again", lane=Lane.COUNT) == "taken again"


async def test_a_stop_ends_running_work_and_refuses_new_work() -> None:
    never = threading.Event()
    running = asyncio.create_task(off_loop(lambda: _held(never)))
    waiting = [asyncio.create_task(off_loop(lambda: _held(never), lane=Lane.COUNT)) for _ in range(2)]
    await asyncio.sleep(0.05)
    started = time.monotonic()
    cpu.stop_work()
    for job in (running, *waiting):
        with pytest.raises(Stopping):
            await asyncio.wait_for(job, timeout=5)
    assert time.monotonic() - started < 2
    with pytest.raises(Stopping):
        await off_loop(lambda: None)
