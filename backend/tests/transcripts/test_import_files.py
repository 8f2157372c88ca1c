"""What a conversation import accepts as its file (issue 43, section 2): the ZIP a data export
downloads as, a file that begins with a UTF-8 byte-order mark, a Claude Code session's JSONL;
and what each costs at most. Every refusal stores nothing."""

from __future__ import annotations

import json
import struct
import zipfile

import asyncpg
import httpx
import pytest

from smriti.core.config import Settings
from smriti.transcripts import upload
from tests.conftest import make_client
from tests.support.api import create_space
from tests.support.imports import chatgpt_conversation, fixture, import_file, said, zipped
from tests.support.memory import peak_allocated

BOM = b"\xef\xbb\xbf"
CHATGPT_TITLES = ["Lisbon trip", "Storage migration", "A loop in the links", "Untitled conversation 6"]


def _chatgpt_export_zip() -> bytes:
    """What ChatGPT's "Export data" downloads: conversations.json beside the other files."""
    return zipped(
        {
            "user.json": b'{"id": "user-1", "email": "me@example.com"}',
            "conversations.json": fixture("chatgpt_conversations.json"),
            "chat.html": b"<html><body>the same conversations, to read</body></html>",
            "message_feedback.json": b"[]",
            "file-8Yb2fQ-tram-map.png": b"\x89PNG\r\n\x1a\n" + bytes(64),
        }
    )


@pytest.mark.parametrize("content_type", ["application/zip", "application/x-zip-compressed", "application/json"])
async def test_the_zip_an_export_downloads_as_is_read_whatever_its_content_type(
    client: httpx.AsyncClient, content_type: str
) -> None:
    """It was "invalid character (byte 0)"; the web app sends every file as JSON, so the ZIP is
    told by its bytes."""
    space = await create_space(client, f"Zipped {content_type}")
    response = await import_file(client, space["id"], _chatgpt_export_zip(), content_type=content_type)

    assert response.status_code == 201, response.text
    assert [s["title"] for s in response.json()["sessions"]] == CHATGPT_TITLES


async def test_a_zip_of_an_export_folder_reads_the_conversations_json_in_it(client: httpx.AsyncClient) -> None:
    body = zipped(
        {"claude-export/users.json": b"[]", "claude-export/conversations.json": fixture("claude_export.json")}
    )
    space = await create_space(client, "Folder")
    response = await import_file(client, space["id"], body, content_type="application/zip")

    assert response.status_code == 201, response.text
    assert response.json()["format"] == "claude"
    assert len(response.json()["sessions"]) == 3


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (zipped({"chat.html": b"<html></html>"}), "This ZIP holds no conversations.json"),
        (
            zipped({"a/conversations.json": b"[]", "b/conversations.json": b"[]"}),
            "This ZIP holds 2 conversations.json",
        ),
        (b"PK\x03\x04 and then nothing a ZIP has", "it is not one"),
        (zipped({"conversations.json": b"[]"}, method=zipfile.ZIP_BZIP2), "is compressed with method 12"),
        (zipped({"conversations.json": b"{}"}), "these lines hold no message of a Claude Code session"),
    ],
)
async def test_a_zip_that_is_not_an_export_is_a_400(
    client: httpx.AsyncClient, db: asyncpg.Connection, body: bytes, words: str
) -> None:
    space = await create_space(client, "Not an export")
    response = await import_file(client, space["id"], body, content_type="application/zip")

    assert response.status_code == 400, response.text
    assert words in response.json()["detail"]
    assert response.json()["errors"][0]["field"] == "body"
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0


def _encrypted_zip() -> bytes:
    """A ZIP whose member says it is encrypted (zipfile writes no encryption: the flag, in both
    of the member's headers, is what a reader goes by)."""
    body = bytearray(zipped({"conversations.json": b"[]"}, method=zipfile.ZIP_STORED))
    body[body.index(b"PK\x03\x04") + 6] |= 0x1
    body[body.index(b"PK\x01\x02") + 8] |= 0x1
    return bytes(body)


def _corrupted_zip() -> bytes:
    """A deflated member whose compressed bytes were damaged."""
    body = bytearray(zipped({"conversations.json": fixture("claude_export.json")}))
    start = body.index(b"conversations.json") + len("conversations.json")
    body[start + 40 : start + 80] = bytes(40)
    return bytes(body)


def _understated_zip() -> bytes:
    """A member whose headers say it is 100 bytes unzipped when it is ~9 KB: a reader that trusts
    the declared size reads 100 bytes and finds the CRC wrong."""
    body = bytearray(zipped({"conversations.json": fixture("claude_export.json")}))
    local = body.index(b"PK\x03\x04")
    central = body.index(b"PK\x01\x02")
    struct.pack_into("<I", body, local + 22, 100)  # the local header's uncompressed size
    struct.pack_into("<I", body, central + 24, 100)  # the central directory's
    return bytes(body)


_ZIP = "application/zip"
_LINES = "application/x-ndjson"


@pytest.mark.parametrize(
    ("body", "content_type", "words"),
    [
        (_encrypted_zip(), _ZIP, "is encrypted"),
        (_corrupted_zip(), _ZIP, "cannot be read"),
        (_understated_zip(), _ZIP, "cannot be read: Bad CRC-32"),
        # A file of lines that is no Claude Code session.
        (b'{"type": "user"}\n{"type": ', _LINES, "line 2 is not JSON"),
        (b'{"type": "summary", "summary": "x"}\n[1]\n', _LINES, "line 2 is a list, not an object"),
        (b'{"type": "user", "type": "assistant", "message": {}}\n', _LINES, "appears twice in one object (line 1)"),
        (b'{"type": "summary", "summary": "x"}\n', _LINES, "these lines hold no message of a Claude Code session"),
        (b'{"title": "one conversation, not a list", "mapping": {}}', _LINES, "a JSON list of conversations"),
        (b'{\n "title": "one conversation, pretty-printed"\n}\n', _LINES, "line 1 is not JSON"),
    ],
    ids=[
        "encrypted zip",
        "corrupted zip",
        "understated zip",
        "lines: not JSON",
        "lines: a list",
        "lines: a duplicate key",
        "lines: no message",
        "lines: one conversation",
        "lines: pretty-printed",
    ],
)
async def test_a_file_that_cannot_be_read_is_a_400_naming_why_and_writes_nothing(
    client: httpx.AsyncClient, db: asyncpg.Connection, body: bytes, content_type: str, words: str
) -> None:
    space = await create_space(client, "Unreadable")
    response = await import_file(client, space["id"], body, content_type=content_type)

    assert response.status_code == 400, response.text
    assert words in response.json()["detail"]
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0


async def test_a_zip_bomb_is_refused_by_its_declared_size_before_it_is_read(
    settings: Settings, db: asyncpg.Connection
) -> None:
    """50 MB of conversations.json deflate to ~50 KB: the upload passes the import limit, what it
    unzips to does not, and is never unzipped."""
    bomb = zipped({"conversations.json": b"[" + b" " * 50_000_000 + b"]"})
    assert len(bomb) < 100_000
    async with make_client(settings, max_import_bytes=1_000_000) as client:
        space = await create_space(client, "Bomb")
        with peak_allocated() as peak:
            response = await import_file(client, space["id"], bomb, content_type="application/zip")

    assert response.status_code == 413, response.text
    problem = response.json()
    assert problem["detail"].startswith(
        "The ZIP's conversations.json is larger than SMRITI_MAX_IMPORT_BYTES (1,000,000 bytes) once unzipped"
    )
    assert problem["limit_bytes"] == 1_000_000
    assert peak.bytes < 2 * 2**20, peak.bytes
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0


async def test_a_zip_listing_too_many_files_is_refused_before_its_list_is_read(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """zipfile reads a ZIP's whole list of files, ~460 bytes of memory for each 47-byte entry: the
    list's size is checked first (made small here, so that the ZIP can be)."""
    monkeypatch.setattr(upload, "MAX_DIRECTORY_BYTES", 4096)
    many = zipped({f"{n}": b"" for n in range(200)} | {"conversations.json": fixture("claude_export.json")})
    space = await create_space(client, "Many files")
    response = await import_file(client, space["id"], many, content_type="application/zip")

    assert response.status_code == 413, response.text
    assert response.json()["detail"].startswith("This ZIP lists more files than an import reads")
    assert response.json()["limit_bytes"] == 4096


@pytest.mark.parametrize(
    ("name", "body", "content_type"),
    [
        ("a JSON list", BOM + fixture("claude_export.json"), "application/json"),
        ("a JSONL session", BOM + fixture("claude_code_session.jsonl"), "application/x-ndjson"),
        ("a zipped JSON list", zipped({"conversations.json": BOM + fixture("claude_export.json")}), "application/zip"),
    ],
)
async def test_a_file_that_begins_with_a_byte_order_mark_is_read(
    client: httpx.AsyncClient, name: str, body: bytes, content_type: str
) -> None:
    """Windows tools write UTF-8 with a BOM; it was "invalid character"."""
    space = await create_space(client, f"BOM {name}")
    response = await import_file(client, space["id"], body, content_type=content_type)

    assert response.status_code == 201, response.text
    assert response.json()["sessions"]


async def test_the_import_alone_reads_a_zip_or_jsonl_content_type(client: httpx.AsyncClient) -> None:
    """A ZIP is not a type a browser sends across sites unasked; other routes still read JSON only."""
    space = await create_space(client, "Types")
    refused = await client.post("/v4/repos", content=b"{}", headers={"Content-Type": "application/zip"})
    assert refused.status_code == 415, refused.text
    plain = await import_file(client, space["id"], fixture("claude_export.json"), content_type="text/plain")
    assert plain.status_code == 415, plain.text
    bundle = await client.post("/v5/repos/import", content=b"{}", headers={"Content-Type": "application/zip"})
    assert bundle.status_code == 415, bundle.text


def _user(text: str) -> bytes:
    line = {"type": "user", "sessionId": "s-1", "message": {"role": "user", "content": text}}
    return json.dumps(line).encode() + b"\n"


def _tool_result(size: int) -> bytes:
    """A tool's output, as a Read of a large file comes back: left out, so it costs nothing held."""
    content = [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "x" * size}]
    line = {"type": "user", "sessionId": "s-1", "message": {"role": "user", "content": content}}
    return json.dumps(line).encode() + b"\n"


async def test_a_session_line_longer_than_the_limit_is_a_413_naming_it(
    settings: Settings, db: asyncpg.Connection
) -> None:
    body = _user("hello") + _tool_result(70_000) + _user("bye")
    async with make_client(settings, max_bundle_line_bytes=64 * 1024) as client:
        space = await create_space(client, "Long line")
        response = await import_file(client, space["id"], body, content_type="application/x-ndjson")

    assert response.status_code == 413, response.text
    problem = response.json()
    assert problem["detail"].startswith(
        "Line 2 of the session is longer than SMRITI_MAX_BUNDLE_LINE_BYTES (65536 bytes)"
    )
    assert problem["errors"][0]["field"] == "line 2"
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0


async def test_a_session_that_says_more_than_the_limit_is_a_413(settings: Settings, db: asyncpg.Connection) -> None:
    """Each line is under the limit; what the session keeps of them (its Turns) is not."""
    body = b"".join(_user(f"message {n}: " + "words " * 2000) for n in range(20))
    async with make_client(settings, max_bundle_line_bytes=64 * 1024) as client:
        space = await create_space(client, "Long session")
        response = await import_file(client, space["id"], body, content_type="application/x-ndjson")

    assert response.status_code == 413, response.text
    assert response.json()["detail"].startswith("Conversation 1 of the export is larger than")
    assert await db.fetchval("SELECT count(*) FROM sessions") == 0


async def test_a_zipped_export_holds_a_few_conversations_not_the_file(client: httpx.AsyncClient) -> None:
    """The member is unzipped as it is read, a piece at a time, as the plain file is
    (test_conversations.test_an_import_holds_a_few_conversations_not_the_file)."""
    export = json.dumps([chatgpt_conversation(n, messages=40, words=20) for n in range(500)]).encode()
    body = zipped({"conversations.json": export})
    space = await create_space(client, "Big zip")

    with peak_allocated() as peak:
        response = await import_file(client, space["id"], body, content_type="application/zip")

    assert response.status_code == 201, response.text
    assert len(response.json()["sessions"]) == 500
    assert peak.bytes < 8 * 2**20, (peak.bytes, len(export))


async def test_a_session_is_read_a_line_at_a_time(client: httpx.AsyncClient) -> None:
    """~24 MB of tool output in a session of a few words: what is held is one line and the words."""
    body = b"".join(_user(f"question {n}") + _tool_result(1_000_000) for n in range(24))
    space = await create_space(client, "Big session")

    with peak_allocated() as peak:
        response = await import_file(client, space["id"], body, content_type="application/x-ndjson")

    assert response.status_code == 201, response.text
    [session] = response.json()["sessions"]
    assert await said(client, session["session_id"]) == [("user", "\n\n".join(f"question {n}" for n in range(24)))]
    assert peak.bytes < 8 * 2**20, (peak.bytes, len(body))
