"""The quick duplicate-key check on JSON text (core/json_checks.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.core.json_checks import duplicate_key

# JSON text written by hand, so that an object may name a key twice (json.dumps never would).
_KEYS = st.sampled_from(["a", "b", "a:b", ":", "é", "\\u003a", "a\\u003ab", "\\u0061"])
_SCALARS = st.sampled_from(['"x"', '"x:y"', '"\\u003a"', '":"', "1", "1.5", "true", "null", '""'])


def _json_text(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    members = st.lists(st.tuples(_KEYS, children), max_size=4)
    objects = members.map(lambda pairs: "{" + ",".join(f'"{key}": {value}' for key, value in pairs) + "}")
    return st.lists(children, max_size=3).map(lambda items: "[" + ", ".join(items) + "]") | objects


@settings(max_examples=1000, deadline=None)
@given(st.recursive(_SCALARS, _json_text, max_leaves=12))
def test_the_quick_duplicate_key_check_agrees_with_the_exact_one(text: str) -> None:
    repeated: list[str] = []

    def exact(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        repeated.extend(key for index, key in enumerate(keys) if key in keys[:index])
        return dict(pairs)

    json.loads(text, object_pairs_hook=exact)
    found = duplicate_key(text)
    assert (found is None) == (not repeated), (text, found, repeated)
    if found is not None:
        assert found in repeated


@pytest.mark.parametrize(
    "document",
    [b'{"a": 1, "b": "\xff"}', b'{"a": "\xc3", "a": 1}', '{"a": "\ud800", "a": 1}'],
    ids=["bytes that are not UTF-8", "a name twice beside them", "text with a lone surrogate"],
)
def test_what_is_not_json_text_has_no_name_twice(document: bytes | str) -> None:
    """Not UTF-8, so not JSON (RFC 8259 §8.1): None, for the caller's decode to refuse it. The
    exact check raised UnicodeDecodeError (a bundle line's 500) or UnicodeEncodeError."""
    assert duplicate_key(document) is None
