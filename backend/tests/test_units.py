"""Pure functions: settings, context assembly, the nudge, canonical hashing."""

from __future__ import annotations

import datetime
import hashlib
import json
import platform
import time
import uuid
from typing import Any

import msgspec
import pytest
import rfc8785
import structlog
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.chat.context import HistoryTurn, MountedCheckpoint, Section, assemble, cut_artifact
from smriti.chat.nudge import DECISION_CUES, find_decision_cue, suggest
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
from smriti.checkpoints.schemas import Artifact, Checkpoint, CheckpointContent, Entity, Task
from smriti.core.config import ConfigError, ProviderSettings, Settings
from smriti.core.errors import BadRequest
from smriti.core.ids import uuid7
from smriti.core.json_checks import duplicate_key
from smriti.core.logging import configure_logging
from smriti.core.lru import SizedLru
from smriti.core.text import is_blank
from smriti.providers.base import ProviderRequest
from smriti.providers.offline import describe_context
from smriti.providers.registry import ProviderRegistry
from smriti.server.body_limit import _fits
from smriti.server.memory import tune_allocator


def _checkpoint(**fields: object) -> Checkpoint:
    base: dict[str, object] = {
        "id": uuid.uuid4(),
        "repo_id": uuid.uuid4(),
        "parent_commit_id": None,
        "commit_hash": "abcdef0123" + "0" * 54,
        "message": "State",
        "summary": "",
        "decisions": [],
        "assumptions": [],
        "tasks": [],
        "open_questions": [],
        "entities": [],
        "artifacts": [],
        "metadata": {},
        "created_at": datetime.datetime.now(datetime.UTC),
    }
    base.update(fields)
    return Checkpoint(**base)  # type: ignore[arg-type]


def test_settings_from_env() -> None:
    settings = Settings.from_env({"SMRITI_MAX_BODY_BYTES": "2048", "OPENAI_API_KEY": " sk-1 ", "SMRITI_DEBUG": "yes"})
    assert settings.max_body_bytes == 2048
    assert settings.openai.api_key == "sk-1"
    assert settings.debug is True
    assert settings.database_url is None
    assert "sk-1" not in repr(settings)
    with pytest.raises(ConfigError, match="SMRITI_MAX_BODY_BYTES"):
        Settings.from_env({"SMRITI_MAX_BODY_BYTES": "lots"})
    with pytest.raises(ConfigError, match="SMRITI_PROVIDER_TIMEOUT"):
        Settings.from_env({"SMRITI_PROVIDER_TIMEOUT": "-1"})
    timeouts = Settings.from_env({"SMRITI_DB_ACQUIRE_TIMEOUT": "2.5", "SMRITI_DB_STATEMENT_TIMEOUT": "12"})
    assert (timeouts.db_acquire_timeout_s, timeouts.db_statement_timeout_s) == (2.5, 12.0)
    assert (settings.db_acquire_timeout_s, settings.db_statement_timeout_s) == (10.0, 30.0)
    for unusable in ("0", "inf", "nan", "3000000"):  # PostgreSQL's limit is 2,147,483 s
        with pytest.raises(ConfigError, match="SMRITI_DB_STATEMENT_TIMEOUT"):
            Settings.from_env({"SMRITI_DB_STATEMENT_TIMEOUT": unusable})
        with pytest.raises(ConfigError, match="SMRITI_MIGRATION_LOCK_TIMEOUT"):
            Settings.from_env({"SMRITI_MIGRATION_LOCK_TIMEOUT": unusable})
    assert settings.migration_lock_timeout_s == 5.0
    assert Settings.from_env({"SMRITI_MIGRATION_LOCK_TIMEOUT": "0.5"}).migration_lock_timeout_s == 0.5


def test_default_provider_is_offline_only_without_keys() -> None:
    assert ProviderRegistry(Settings.from_env({})).default_name == "offline"
    assert ProviderRegistry(Settings.from_env({"ANTHROPIC_API_KEY": "k"})).default_name == "anthropic"
    assert (
        ProviderRegistry(Settings.from_env({"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"})).default_name == "openai"
    )
    with pytest.raises(ConfigError):
        ProviderRegistry(Settings.from_env({"SMRITI_DEFAULT_PROVIDER": "anthropic"}))


def test_unmounted_context_has_no_system_part() -> None:
    history = [HistoryTurn("user", "hi", sequence_number=1), HistoryTurn("assistant", "hello", sequence_number=2)]
    context = assemble(None, history, "next")
    assert context.system is None
    assert [(m.role, m.content) for m in context.messages] == [
        ("user", "hi"),
        ("assistant", "hello"),
        ("user", "next"),
    ]
    assert [s.name for s in context.sections] == ["history", "message"]


def test_checkpoint_renders_every_field_and_skips_empty_ones() -> None:
    checkpoint = _checkpoint(
        summary="Sum",
        decisions=["D1", "D2"],
        tasks=[Task("T1", done=True), Task("T2")],
        entities=[Entity("Postgres", kind="db", description="the store"), Entity("Bob")],
        artifacts=[Artifact("a.md", "x" * 2500, "text/markdown")],
    )
    context = assemble(MountedCheckpoint.render(checkpoint), [], "go")
    system = context.system or ""
    assert "## Checkpoint abcdef0: State" in system
    assert "### Decisions (2)\n1. D1\n2. D2" in system
    assert "- [x] T1\n- [ ] T2" in system
    assert "- Postgres (db): the store\n- Bob" in system
    assert "#### a.md (text/markdown)" in system
    assert "[artifact cut: showing 2,000 of 2,500 characters]" in system
    assert "Assumptions" not in system
    assert "Open questions" not in system


def test_offline_reply_counts_every_kind_the_checkpoint_has() -> None:
    checkpoint = _checkpoint(
        message="Plan: v2",
        summary="Sum\n### Not a section (9)",  # a header-like line inside a field is not counted
        decisions=["D1", "D2", "D3"],
        assumptions=["A1"],
        tasks=[Task("T1"), Task("T2")],
        open_questions=["Q1", "Q2", "Q3", "Q4"],
        entities=[Entity("Postgres")],
        artifacts=[Artifact("a.md", "body", "text/markdown"), Artifact("b.md", "more")],
    )
    context = assemble(MountedCheckpoint.render(checkpoint), [HistoryTurn("user", "hi", sequence_number=3)], "go")
    reply = describe_context(ProviderRequest(model="offline-1", system=context.system, messages=context.messages))
    assert reply.splitlines()[1:] == [
        "Mounted Checkpoint: abcdef0 «Plan: v2» with 3 decisions, 1 assumption, 2 tasks, 4 open questions, "
        "1 entity, 2 artifacts.",
        "History: 1 Turn before your message.",
        "Your message: «go»",
    ]
    bare = assemble(MountedCheckpoint.render(_checkpoint()), [], "go")
    reply = describe_context(ProviderRequest(model="offline-1", system=bare.system, messages=bare.messages))
    assert "with 0 decisions, 0 assumptions, 0 tasks, 0 open questions, 0 entities, 0 artifacts." in reply


def test_artifact_cut_and_token_estimate() -> None:
    assert cut_artifact("short") == "short"
    assert cut_artifact("x" * 2000) == "x" * 2000
    assert cut_artifact("x" * 2001).startswith("x" * 2000 + "\n[artifact cut")
    # About four characters per token, rounded up; the history counts characters it never joins.
    assert Section("summary", "system", 1, "").tokens == 0
    assert Section("summary", "system", 1, "abcde").tokens == 2
    assert Section("history", "history", 3, "", chars=9).tokens == 3


def test_nudge() -> None:
    quiet = suggest(turns_since=4, since_what="x", threshold=12, latest_exchange="just chatting")
    assert quiet.checkpoint_recommended is False
    assert quiet.reason is None
    many = suggest(turns_since=12, since_what="the mounted Checkpoint", threshold=12, latest_exchange="ok")
    assert many.checkpoint_recommended is True
    assert many.reason == "12 Turns since the mounted Checkpoint."
    for phrase in ("OK, let's go with Lisbon.", "We decided to use Postgres", "Final answer: 42"):
        cue = suggest(turns_since=2, since_what="x", threshold=12, latest_exchange=phrase)
        assert cue.checkpoint_recommended is True, phrase


_CUES = [
    "we decided", "We've decided", "we have decided", "decided to", "let's go with", "lets go with",
    "we'll go with", "we will go with", "going with", "final answer", "settled on", "we agreed",
    "agreed on", "the decision is", "Decision:",
]  # fmt: skip


@given(st.text(max_size=40), st.sampled_from([*_CUES, "12 decisions", "decision", ""]), st.text(max_size=40))
def test_the_cheap_cue_check_never_changes_what_the_regex_finds(before: str, cue: str, after: str) -> None:
    for phrase in (cue, cue.upper(), cue.title()):
        text = before + phrase + after
        match = DECISION_CUES.search(text)
        assert find_decision_cue(text) == (match.group(0) if match else None)


def test_every_cue_is_found_and_a_count_of_decisions_is_none() -> None:
    for cue in _CUES:
        assert find_decision_cue(f"So, {cue.upper()} that.") is not None, cue
    assert find_decision_cue("Mounted Checkpoint: abc «x» with 12 decisions, 1 task.") is None


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
    """The commit's encode-once path (stored, hashed, echoed) agrees with what verify recomputes."""
    encoded = encode_content(content)
    plain = {name: msgspec.to_builtins(getattr(content, name)) for name in CONTENT_FIELDS}
    assert encoded.sha256 == content_sha256(plain)
    assert encoded.sha256 == hashlib.sha256(rfc8785.dumps(plain)).hexdigest()
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


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_allocator_thresholds_are_set_on_glibc() -> None:
    assert tune_allocator() is True


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


def test_sized_lru_keeps_the_recently_used_within_its_budget() -> None:
    cache: SizedLru[int, bytes] = SizedLru(1000, len)
    for key in range(5):
        cache.put(key, b"x" * 200)
    assert cache.get(0) == b"x" * 200  # read: now the most recently used
    cache.put(5, b"x" * 200)  # over the budget: the least recently used goes
    assert cache.get(1) is None
    assert all(cache.get(key) is not None for key in (0, 2, 3, 4, 5))
    cache.put(6, b"y" * 251)  # larger than a quarter of the budget: not kept, nothing evicted
    assert cache.get(6) is None
    assert all(cache.get(key) is not None for key in (0, 2, 3, 4, 5))


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


def test_log_lines_lose_the_api_token_however_short_but_keep_placeholder_keys(
    capfd: pytest.CaptureFixture[str],
) -> None:
    settings = Settings(api_token="tok1", openai=ProviderSettings(api_key="x"))
    configure_logging(settings)
    structlog.get_logger("test").info("event", detail="Bearer tok1 sent; maximum context exceeded")
    logged = capfd.readouterr().err
    assert "tok1" not in logged
    assert "Bearer [redacted] sent; maximum context exceeded" in logged
