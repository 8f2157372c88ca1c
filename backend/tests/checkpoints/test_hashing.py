"""Canonical hashing and the checks on what is stored (checkpoints/hashing.py)."""

from __future__ import annotations

import datetime
import hashlib
import uuid
from typing import Any

import msgspec
import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.checkpoints.hashing import (
    CONTENT_FIELDS,
    _plainly_storable,
    canonical_json,
    check_content_text,
    check_storable,
    compute_commit_hash,
    content_sha256,
    encode_content,
    format_timestamp,
)
from smriti.checkpoints.schemas import Artifact, CheckpointContent, Entity, Task
from smriti.core.errors import BadRequest
from smriti.core.text import is_blank


def test_hash_is_canonical_and_sensitive() -> None:
    when = datetime.datetime(2026, 1, 2, 3, 4, 5, 678, tzinfo=datetime.UTC)
    ids = {"commit_id": uuid.UUID(int=1), "repo_id": uuid.UUID(int=2), "created_at": when}
    content = {
        "message": "m",
        "summary": "",
        "decisions": ["a"],
        "assumptions": [],
        "tasks": [],
        "open_questions": [],
        "entities": [],
        "artifacts": [],
        "metadata": {"b": 1, "a": 1.0},
    }
    reordered = {**content, "metadata": {"a": 1, "b": 1.0}}
    first = compute_commit_hash(parent_hash=None, content=content, **ids)  # type: ignore[arg-type]
    assert first == compute_commit_hash(parent_hash=None, content=reordered, **ids)  # type: ignore[arg-type]
    assert first != compute_commit_hash(parent_hash="0" * 64, content=content, **ids)  # type: ignore[arg-type]
    assert first != compute_commit_hash(
        parent_hash=None,
        content={**content, "decisions": ["b"]},
        **ids,  # type: ignore[arg-type]
    )
    assert format_timestamp(when) == "2026-01-02T03:04:05.000678Z"


def test_storable_rejects_what_cannot_round_trip() -> None:
    check_storable({"ok": [1, 2.5, "x", None, True]}, "metadata")
    for bad, where in (
        ({"n": 2**53}, "metadata.n"),
        ({"f": 1e300}, "metadata.f"),
        ({"k\u0000": 1}, "metadata"),
        ({"l": ["a", "b\u0000"]}, "metadata.l[1]"),
    ):
        with pytest.raises(BadRequest) as caught:
            check_storable(bad, "metadata")
        assert caught.value.errors[0].field == where


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False, min_value=-1e15, max_value=1e15)
    | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(_JSON)
def test_fast_canonical_json_is_rfc8785(value: Any) -> None:
    assert canonical_json(value) == rfc8785.dumps(value)


_TEXT = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=12)
_STORABLE_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False, min_value=-1e15, max_value=1e15)
    | _TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_TEXT, children, max_size=4),
    max_leaves=20,
)
_REQUIRED = _TEXT.filter(lambda text: not is_blank(text))
_CONTENT = st.builds(
    CheckpointContent,
    message=_REQUIRED,
    summary=_TEXT,
    decisions=st.lists(_REQUIRED, max_size=3),
    tasks=st.lists(st.builds(Task, text=_REQUIRED, done=st.booleans()), max_size=3),
    entities=st.lists(
        st.builds(Entity, name=_REQUIRED, kind=st.none() | _TEXT, description=st.none() | _TEXT), max_size=2
    ),
    artifacts=st.lists(st.builds(Artifact, name=_REQUIRED, content=_TEXT, media_type=_REQUIRED), max_size=2),
    metadata=st.dictionaries(_TEXT, _STORABLE_JSON, max_size=4),
)


@settings(max_examples=300, deadline=None)
@given(_CONTENT)
def test_content_encoded_once_hashes_like_the_reference(content: CheckpointContent) -> None:
    """The commit's encode-once path (stored, hashed, echoed) agrees with what verify recomputes,
    and its size is the canonical document's (what the Checkpoint size limit measures)."""
    encoded = encode_content(content)
    plain = {name: msgspec.to_builtins(getattr(content, name)) for name in CONTENT_FIELDS}
    assert encoded.sha256 == content_sha256(plain)
    assert encoded.sha256 == hashlib.sha256(rfc8785.dumps(plain)).hexdigest()
    assert encoded.size == len(rfc8785.dumps(plain))
    for name in CONTENT_FIELDS:
        assert msgspec.json.decode(encoded.fields[name]) == plain[name]


# Text that trips the quick checks: NUL, a literal backslash-u0000 (encoded, it contains the
# escaped NUL's bytes), ASCII and Unicode whitespace, and nothing at all.
_AWKWARD_TEXT = st.lists(
    st.characters(exclude_categories=["Cs"]) | st.sampled_from(["\x00", "\\u0000", " ", "\u2003", "\n"]),
    max_size=4,
).map("".join)
_AWKWARD_CONTENT = st.builds(
    CheckpointContent,
    message=_AWKWARD_TEXT,
    summary=_AWKWARD_TEXT,
    decisions=st.lists(_AWKWARD_TEXT, max_size=2),
    tasks=st.lists(st.builds(Task, text=_AWKWARD_TEXT), max_size=2),
    entities=st.lists(st.builds(Entity, name=_AWKWARD_TEXT, kind=st.none() | _AWKWARD_TEXT), max_size=2),
    artifacts=st.lists(
        st.builds(Artifact, name=_AWKWARD_TEXT, content=_AWKWARD_TEXT, media_type=_AWKWARD_TEXT), max_size=2
    ),
)


def _rejected_field(check: Any, content: CheckpointContent) -> str | None:
    try:
        check(content)
    except BadRequest as error:
        return error.errors[0].field
    return None


@settings(max_examples=500, deadline=None)
@given(_AWKWARD_CONTENT)
def test_commit_text_checks_agree_with_the_exact_walk(content: CheckpointContent) -> None:
    """encode_content's quick checks (C-level blank test, one scan of the encoded bytes for NUL)
    reject exactly what the field-by-field walk rejects, naming the same field."""
    assert _rejected_field(encode_content, content) == _rejected_field(check_content_text, content)


_AWKWARD_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats() | _AWKWARD_TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_AWKWARD_TEXT, children, max_size=3),
    max_leaves=12,
)


@settings(max_examples=500, deadline=None)
@given(_AWKWARD_JSON)
def test_the_quick_metadata_check_never_passes_what_the_full_one_rejects(value: Any) -> None:
    """`_plainly_storable` may send a value to the full check; it must never wave through one
    the full check would reject, or one that needs the reference encoder."""
    if _plainly_storable(value):
        assert check_storable(value, "metadata") is True


@pytest.mark.parametrize("leaf", ["leaf", {}, [], ["leaf"], 1])
def test_the_quick_metadata_check_knows_the_depth_limit(leaf: Any) -> None:
    for levels in (31, 32, 33):
        value: Any = leaf
        for _ in range(levels):
            value = {"x": value}
        try:
            full = check_storable(value, "metadata")
        except BadRequest:
            full = False
        assert _plainly_storable(value) is full, (levels, leaf)


def test_canonical_json_takes_the_reference_path_where_msgspec_differs() -> None:
    # 1.0 is "1" in RFC 8785; U+E000 sorts after U+1F600 in UTF-16 code units.
    for value in ({"a": 1.0}, {"\ue000": 1, "\U0001f600": 2}):
        assert canonical_json(value) == rfc8785.dumps(value)
