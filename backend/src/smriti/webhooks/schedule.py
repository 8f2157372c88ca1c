"""When a failed delivery is tried again: soon at first (a receiver restarting), then further
apart, at most an hour, for as long as `SMRITI_WEBHOOK_RETRY_HOURS` allows."""

from __future__ import annotations

from typing import Final

RETRY_DELAYS_S: Final = (2.0, 10.0, 60.0, 300.0, 900.0, 1800.0, 3600.0)
"""Seconds from the n-th failed attempt to the next: the first two retries come 2 s and 12 s
after the first attempt (within 30 s, as SYSTEM.md §14 says), the last delay repeats."""


def retry_delay_s(failed_attempts: int) -> float:
    """The wait after `failed_attempts` failures in a row (1 after the first)."""
    return RETRY_DELAYS_S[min(failed_attempts, len(RETRY_DELAYS_S)) - 1]
