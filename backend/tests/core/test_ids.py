"""Ids (core/ids.py)."""

from __future__ import annotations

import time
import uuid

import pytest

from smriti.core.ids import could_be_checkpoint_ref, uuid7


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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("deadbee", True),
        (" DEADBEEF ", True),
        ("0" * 64, True),
        ("0" * 65, False),
        ("abc123", False),  # six digits name nothing
        ("deadbeg", False),
        ("12345678-1234-5678-1234-567812345678", True),
        ("{12345678-1234-5678-1234-567812345678}", True),
        ("urn:uuid:12345678-1234-5678-1234-567812345678", True),
        ("1234567812345678-1234567812345678", True),  # dashes anywhere
        ("feature/deadbeef", False),
        ("release-2026", False),
    ],
)
def test_what_could_be_a_checkpoint_ref(text: str, expected: bool) -> None:
    assert could_be_checkpoint_ref(text) is expected
