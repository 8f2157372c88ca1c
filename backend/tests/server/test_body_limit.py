"""Which requests skip the body drain (server/body_limit.py)."""

from __future__ import annotations

import pytest

from smriti.server.body_limit import _fits


@pytest.mark.parametrize(
    ("headers", "fits"),
    [
        ([(b"content-length", b"10")], True),
        ([(b"content-length", b"1000")], False),
        ([(b"content-length", b"10"), (b"transfer-encoding", b"chunked")], False),
        ([(b"transfer-encoding", b"chunked")], False),
        ([(b"content-length", b"10"), (b"content-length", b"10")], False),
        ([(b"content-length", b"-1")], False),
        ([], False),
    ],
)
def test_only_a_plain_content_length_within_the_limit_skips_the_drain(
    headers: list[tuple[bytes, bytes]], fits: bool
) -> None:
    assert _fits({"headers": headers}, 100) is fits  # type: ignore[arg-type]  # a partial scope
