"""Ids (core/ids.py)."""

from __future__ import annotations

import time
import uuid

from smriti.core.ids import uuid7


def test_uuid7_is_an_rfc_9562_version_7_id_that_sorts_by_time() -> None:
    before = time.time_ns() // 1_000_000
    ids = [uuid7() for _ in range(1000)]
    after = time.time_ns() // 1_000_000
    assert {value.version for value in ids} == {7}
    assert {value.variant for value in ids} == {uuid.RFC_4122}
    assert all(before <= value.int >> 80 <= after for value in ids)
    assert len(set(ids)) == len(ids)  # 74 random bits per id
    while time.time_ns() // 1_000_000 <= after:  # the next millisecond, however coarse the clock
        time.sleep(0.001)
    later = uuid7()
    assert all(value < later for value in ids)  # a later millisecond sorts after every earlier id
