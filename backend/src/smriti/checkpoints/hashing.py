"""`commit_hash`: a SHA-256 chain over the RFC 8785 canonical JSON of every Checkpoint.

Two steps, so that the step which needs the parent can run inside the database, in the same
statement that locks the Space and moves HEAD:

1. `content_sha256` = SHA-256 of the canonical JSON of the Checkpoint's content (message,
   summary, decisions, assumptions, tasks, open questions, entities, artifacts, metadata), computed
   in Python from the values as the client sent them (defaults filled in), never from JSONB that
   PostgreSQL re-serialised.
2. `commit_hash` = SHA-256 of the canonical JSON of `{content_sha256, created_at, id,
   parent_hash, repo_id}`, and on a merge also `merge_parent_hash` (the second parent's hash; the
   key is left out otherwise, so no other hash changed when merges came). Every value there is a
   hex digest, a UUID, a fixed-format timestamp or null, so its canonical form is plain string
   concatenation, which SQL reproduces exactly (`chain_hash_sql`).

JSONB reorders keys and re-spells numbers; canonicalisation undoes both, so `verify`, recomputing
from the stored values, gets the same hashes as long as nothing was changed.
"""

from __future__ import annotations

import datetime
import hashlib
import math
import operator
from collections.abc import Mapping
from typing import Any
from uuid import UUID

import msgspec
import rfc8785

from smriti.checkpoints.schemas import CheckpointContent
from smriti.core.errors import BadRequest
from smriti.core.text import BLANK, is_blank

CONTENT_FIELDS = (
    "message",
    "summary",
    "decisions",
    "assumptions",
    "tasks",
    "open_questions",
    "entities",
    "artifacts",
    "metadata",
)

# RFC 8785 numbers are IEEE doubles: integers beyond 2^53 cannot be represented exactly.
_MAX_SAFE_INTEGER = 2**53 - 1
_MAX_DEPTH = 32
# RFC 8785 sorts keys by UTF-16 code units; above U+E000 that differs from code point order.
_SURROGATE_ORDER_FROM = "\ue000"

_sorted_json = msgspec.json.Encoder(order="sorted").encode

TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
TIMESTAMP_FORMAT_SQL = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'


_TEXT_FIELDS = tuple(name for name in CONTENT_FIELDS if name != "metadata")
_ESCAPED_NUL = b"\\u0000"
_text = operator.attrgetter("text")
_name = operator.attrgetter("name")
_media_type = operator.attrgetter("media_type")
_strip_blank = operator.methodcaller("strip", BLANK)

# The canonical document's keys in RFC 8785 order (all ASCII, so plain sorting is that order).
_DOCUMENT_ORDER = tuple(sorted(CONTENT_FIELDS))
# The document's bytes other than its fields' values: the braces, each `"name":` and the commas.
_DOCUMENT_FRAME = 2 + sum(len(name) + 3 for name in CONTENT_FIELDS) + len(CONTENT_FIELDS) - 1


class EncodedContent(msgspec.Struct, frozen=True):
    fields: dict[str, msgspec.Raw]
    """Each hashed field as canonical JSON, in `CONTENT_FIELDS` order, defaults filled in."""
    sha256: str
    """`content_sha256` of those fields."""
    size: int
    """Bytes of the canonical document `sha256` covers: what a Checkpoint's size limit measures
    (`checkpoints/size.py`), counted from the encoded fields rather than by building it."""


def encode_content(checkpoint: CheckpointContent) -> EncodedContent:
    """Encode a Checkpoint's content once, canonically; the bytes are stored as JSONB, hashed and
    sent back, so the three can never disagree and nothing is encoded twice.

    Only `metadata` is free-form JSON: it alone is checked (`check_storable`) and, when it holds
    floats or keys that sort differently in UTF-16, takes the reference RFC 8785 encoder. The
    other fields are strings, booleans and null, for which msgspec's sorted encoding is exact.
    The canonical document is then the fields' canonical JSON joined under their sorted names,
    which is what `content_sha256` hashes (a unit test holds the two together).
    """
    if not _required_text_present(checkpoint):
        check_content_text(checkpoint)  # raises, naming the field
    encoded = {name: _sorted_json(getattr(checkpoint, name)) for name in _TEXT_FIELDS}
    # JSON spells NUL `\u0000`, so one scan of the encoded bytes finds any NUL in any text. A
    # literal backslash before "u0000" matches too; the exact walk then finds nothing and passes.
    if any(_ESCAPED_NUL in value for value in encoded.values()):
        check_content_text(checkpoint)
    exact = _plainly_storable(checkpoint.metadata) or check_storable(checkpoint.metadata, "metadata")
    fields = {name: msgspec.Raw(value) for name, value in encoded.items()}
    fields["metadata"] = msgspec.Raw(_sorted_json(checkpoint.metadata) if exact else rfc8785.dumps(checkpoint.metadata))
    size = _DOCUMENT_FRAME + sum(map(len, fields.values()))
    return EncodedContent(fields=fields, sha256=_document_sha256(fields), size=size)


def _required_text_present(content: CheckpointContent) -> bool:
    """True when no required text is empty or blank (white space or invisible characters only,
    `smriti.core.text.BLANK`); iterated in C, as this runs on every commit and the exact walk only
    when it fails."""
    return (
        _all_visible([content.message])
        and _all_visible(content.decisions)
        and _all_visible(content.assumptions)
        and _all_visible(content.open_questions)
        and _all_visible(list(map(_text, content.tasks)))
        and _all_visible(list(map(_name, content.entities)))
        and _all_visible(list(map(_name, content.artifacts)))
        and _all_visible(list(map(_media_type, content.artifacts)))
    )


def _all_visible(texts: list[str]) -> bool:
    """No text is blank. Invisible characters are never ASCII, so ASCII text needs only the
    white-space test (`str.strip` without arguments is much cheaper than with `BLANK`)."""
    return all(map(str.strip, texts)) and (all(map(str.isascii, texts)) or all(map(_strip_blank, texts)))


def _document_sha256(fields: Mapping[str, bytes | msgspec.Raw]) -> str:
    """SHA-256 of the canonical content document, given each field's canonical JSON. The
    document's keys are fixed ASCII names, so it is those pieces joined in sorted key order;
    they are hashed piece by piece, so a 1 MB artifact is not copied into a second document."""
    digest = hashlib.sha256()
    separator = b"{"
    for name in _DOCUMENT_ORDER:
        digest.update(separator + b'"' + name.encode() + b'":')
        digest.update(fields[name])
        separator = b","
    digest.update(b"}")
    return digest.hexdigest()


def check_content_text(content: CheckpointContent) -> None:
    """The text rules of a Checkpoint's content, field by field: no NUL anywhere (PostgreSQL text
    and JSONB cannot hold it) and no empty or blank text where a value is required. 400 naming
    the first offending field. `encode_content` runs it only when its quick checks fail."""
    _check_text_value(content.message, "message", required=True)
    _check_text_value(content.summary, "summary", required=False)
    for name in ("decisions", "assumptions", "open_questions"):
        for index, item in enumerate(getattr(content, name)):
            _check_text_value(item, name, required=True, index=index)
    for index, task in enumerate(content.tasks):
        _check_text_value(task.text, "tasks", required=True, index=index, part="text")
    for index, entity in enumerate(content.entities):
        _check_text_value(entity.name, "entities", required=True, index=index, part="name")
        _check_text_value(entity.kind, "entities", required=False, index=index, part="kind")
        _check_text_value(entity.description, "entities", required=False, index=index, part="description")
    for index, artifact in enumerate(content.artifacts):
        _check_text_value(artifact.name, "artifacts", required=True, index=index, part="name")
        _check_text_value(artifact.content, "artifacts", required=False, index=index, part="content")
        _check_text_value(artifact.media_type, "artifacts", required=True, index=index, part="media_type")


def _check_text_value(
    value: str | None, name: str, *, required: bool, index: int | None = None, part: str | None = None
) -> None:
    if value is None:
        return
    has_nul = "\x00" in value
    if not has_nul and not (required and is_blank(value)):
        return
    field = name + ("" if index is None else f"[{index}]") + ("" if part is None else f".{part}")
    # Worded like the validation errors of the other fields: "Invalid request. <field>: <rule>".
    rule = "Expected text without NUL (\\u0000) characters" if has_nul else "Expected non-empty text"
    raise BadRequest(f"Invalid request. {field}: {rule}", field=field, field_message=rule)


def check_storable(value: Any, path: str) -> bool:
    """Reject free-form JSON that PostgreSQL or RFC 8785 cannot hold exactly, naming the place.

    Returns True when the value holds no float and no key that sorts differently in UTF-16,
    the two things for which msgspec's sorted encoding differs from RFC 8785.
    """
    exact = True
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > _MAX_DEPTH:
            raise BadRequest(f"{path} is nested more than {_MAX_DEPTH} levels deep", field=where)
        if isinstance(item, dict):
            for key, child in item.items():
                _check_text(key, where, "keys")
                exact = exact and max(key, default="") < _SURROGATE_ORDER_FROM
                stack.append((child, f"{where}.{key}", depth + 1))
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{index}]", depth + 1) for index, child in enumerate(item))
        else:
            _check_scalar(item, where)
            exact = exact and not isinstance(item, float)
    return exact


def _plainly_storable(value: Any, depth: int = 0) -> bool:
    """The common case of `check_storable`, without building a path for every value: True when
    the value is storable and holds no float and no key above U+E000. False means "look closer"
    (a float, or something to reject); `check_storable` then decides and names the place."""
    kind = type(value)
    if depth > _MAX_DEPTH:
        return False
    if kind is dict:
        return _plain_object(value, depth)
    if kind is list:
        return all(_plainly_storable(child, depth + 1) for child in value)
    if kind is str:
        return "\x00" not in value
    return value is None or kind is bool or (kind is int and -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER)


def _plain_object(value: dict[str, Any], depth: int) -> bool:
    if value and depth == _MAX_DEPTH:
        return False  # its members would be too deep
    for key, child in value.items():
        if "\x00" in key or max(key, default="") >= _SURROGATE_ORDER_FROM:
            return False
        # Text, the usual member, is checked here rather than by another call.
        if not ("\x00" not in child if type(child) is str else _plainly_storable(child, depth + 1)):
            return False
    return True


def _check_text(text: str, where: str, what: str = "text") -> None:
    if "\x00" in text:
        raise BadRequest(f"{what} must not contain NUL (\\u0000) characters", field=where)


def _check_scalar(item: Any, where: str) -> None:
    if isinstance(item, str):
        _check_text(item, where)
    elif isinstance(item, bool) or item is None:
        return
    elif isinstance(item, int) and abs(item) > _MAX_SAFE_INTEGER:
        raise BadRequest("integers must lie within ±(2^53 − 1)", field=where)
    elif isinstance(item, float) and (not math.isfinite(item) or abs(item) > _MAX_SAFE_INTEGER):
        raise BadRequest("numbers must be finite and within ±(2^53 − 1)", field=where)


def canonical_json(value: Any) -> bytes:
    """RFC 8785 canonical JSON.

    msgspec's sorted encoding produces the same bytes as RFC 8785 for strings, integers,
    booleans and null, at a fraction of the cost; floats (spelled differently) and keys above
    U+E000 (sorted differently) take the reference implementation.
    """
    return _sorted_json(value) if _is_exact(value) else rfc8785.dumps(value)


def _is_exact(value: Any) -> bool:
    if isinstance(value, dict):
        return all(max(k, default="") < _SURROGATE_ORDER_FROM and _is_exact(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_is_exact(item) for item in value)
    return not isinstance(value, float)


def content_sha256(content: Mapping[str, Any]) -> str:
    """`content_sha256` from plain JSON values (what `verify` recomputes from stored rows)."""
    return _document_sha256({name: canonical_json(content[name]) for name in CONTENT_FIELDS})


def format_timestamp(moment: datetime.datetime) -> str:
    """Always the same spelling: UTC, microseconds, `Z` (SQL: `TIMESTAMP_FORMAT_SQL`)."""
    return moment.astimezone(datetime.UTC).strftime(TIMESTAMP_FORMAT)


def chain_hash(
    *,
    commit_id: UUID,
    repo_id: UUID,
    parent_hash: str | None,
    created_at: datetime.datetime,
    content_digest: str,
    merge_parent_hash: str | None = None,
) -> str:
    document = {
        "content_sha256": content_digest,
        "created_at": format_timestamp(created_at),
        "id": str(commit_id),
        "parent_hash": parent_hash,
        "repo_id": str(repo_id),
    }
    if merge_parent_hash is not None:
        document["merge_parent_hash"] = merge_parent_hash
    # Digests, UUIDs, a timestamp and null: msgspec's sorted encoding is exactly RFC 8785 here.
    return hashlib.sha256(_sorted_json(document)).hexdigest()


def compute_commit_hash(
    *,
    commit_id: UUID,
    repo_id: UUID,
    parent_hash: str | None,
    created_at: datetime.datetime,
    content: Mapping[str, Any],
    merge_parent_hash: str | None = None,
) -> str:
    """The whole chain step in Python: what `verify` recomputes from stored values."""
    return chain_hash(
        commit_id=commit_id,
        repo_id=repo_id,
        parent_hash=parent_hash,
        created_at=created_at,
        content_digest=content_sha256(content),
        merge_parent_hash=merge_parent_hash,
    )


def chain_hash_sql(  # noqa: PLR0917 (the document's fields, in its order)
    digest: str, created_at: str, commit_id: str, parent_hash: str, repo_id: str, merge_parent_hash: str | None = None
) -> str:
    """The same canonical document as `chain_hash`, spelled in SQL from column expressions.
    `merge_parent_hash` (sorted between `id` and `parent_hash`) only for a merge's statement."""
    merge = "" if merge_parent_hash is None else f"""'","merge_parent_hash":"' || {merge_parent_hash} || """
    return (
        "encode(sha256(convert_to("
        f"""'{{"content_sha256":"' || {digest} || '","created_at":"' || """
        f"""to_char({created_at} AT TIME ZONE 'UTC', '{TIMESTAMP_FORMAT_SQL}') || """
        f"""'","id":"' || {commit_id}::text || {merge}'","parent_hash":' || """
        f"""COALESCE('"' || {parent_hash} || '"', 'null') || """
        f"""',"repo_id":"' || {repo_id}::text || '"}}', 'UTF8')), 'hex')"""
    )
