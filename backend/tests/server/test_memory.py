"""The allocator's tuning (server/memory.py)."""

from __future__ import annotations

import platform

import pytest

from smriti.server.memory import tune_allocator


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_allocator_thresholds_are_set_on_glibc() -> None:
    assert tune_allocator() is True
