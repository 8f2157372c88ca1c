"""Conversation imports driven over HTTP, and the files the tests send: the fixtures in
tests/transcripts/fixtures are small exports made for these tests from the public formats."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import httpx

from tests.support.api import turns

FIXTURES = Path(__file__).parents[1] / "transcripts" / "fixtures"
NO_LEFT_OUT = {"branches": 0, "images": 0, "attachments": 0, "tool_calls": 0, "thinking": 0, "hidden": 0}


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


async def import_file(
    client: httpx.AsyncClient,
    repo_id: str,
    body: bytes,
    *,
    content_type: str = "application/json",
    copies: bool | None = None,
) -> httpx.Response:
    return await client.post(
        f"/v5/repos/{repo_id}/import/conversations",
        content=body,
        headers={"Content-Type": content_type},
        params={"copies": "true" if copies else "false"} if copies is not None else None,
    )


async def said(client: httpx.AsyncClient, session_id: str) -> list[tuple[str, str]]:
    return [(turn["role"], turn["content"]) for turn in await turns(client, session_id)]


def left_out(**counts: int) -> dict[str, int]:
    return NO_LEFT_OUT | counts


def zipped(files: dict[str, bytes], *, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A ZIP of `files` (name: content), as an export downloads."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def sessions_by_title(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {session["title"]: session for session in result["sessions"]}


def chatgpt_conversation(number: int, messages: int, words: int) -> dict[str, Any]:
    """A conversation shaped like a real ChatGPT export's: every node with its metadata."""
    mapping: dict[str, Any] = {"root": {"id": "root", "message": None, "parent": None, "children": ["n0"]}}
    for n in range(messages):
        mapping[f"n{n}"] = {
            "id": f"n{n}",
            "message": {
                "id": f"n{n}",
                "author": {"role": "user" if n % 2 == 0 else "assistant", "name": None, "metadata": {}},
                "create_time": 1717000000.5 + n,
                "content": {"content_type": "text", "parts": [f"Message {n}: " + "words [and] {braces}, " * words]},
                "status": "finished_successfully",
                "metadata": {"model_slug": "gpt-4o", "finish_details": {"type": "stop"}},
                "recipient": "all",
            },
            "parent": "root" if n == 0 else f"n{n - 1}",
            "children": [f"n{n + 1}"] if n + 1 < messages else [],
        }
    return {"title": f"Conversation {number}", "create_time": 1717000000.0 + number, "mapping": mapping}
