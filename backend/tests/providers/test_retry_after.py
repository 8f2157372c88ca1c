"""A 429 passed on from a provider always says how long to wait (issue 21, item 15)."""

from __future__ import annotations

import datetime
from email.utils import format_datetime

from smriti.providers.base import DEFAULT_RETRY_AFTER_S, MAX_RETRY_AFTER_S, rate_limited_error, retry_after_s


def test_seconds_milliseconds_and_dates_become_whole_seconds() -> None:
    assert retry_after_s({"retry-after": "12"}) == 12
    assert retry_after_s({"retry-after": "2.2"}) == 3
    assert retry_after_s({"retry-after-ms": "1500", "retry-after": "9"}) == 2
    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=90)
    assert 85 <= retry_after_s({"retry-after": format_datetime(later, usegmt=True)}) <= 91


def test_nothing_usable_gives_the_default_and_extremes_are_bounded() -> None:
    for headers in ({}, {"retry-after": "soon"}, {"retry-after": "nan"}, {"retry-after-ms": "x"}):
        assert retry_after_s(headers) == DEFAULT_RETRY_AFTER_S, headers
    assert retry_after_s({"retry-after": "-5"}) == 1
    assert retry_after_s({"retry-after": "1e12"}) == MAX_RETRY_AFTER_S
    past = datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=1)
    assert retry_after_s({"retry-after": format_datetime(past, usegmt=True)}) == 1


def test_the_failure_carries_it() -> None:
    assert rate_limited_error("openai", "slow down", {"retry-after": "7"}).retry_after_s == 7
    assert rate_limited_error("openai", "slow down").retry_after_s == DEFAULT_RETRY_AFTER_S
