"""The client announces an upload's length when it can, so a server refuses one past its limit at
once (issue 42, item 15): it answered 413 only after reading up to the limit (256 MiB)."""

from __future__ import annotations

import io
import os
import uuid
from pathlib import Path
from typing import IO

import httpx
import pytest

from smriti.client.api import SmritiClient
from smriti.client.errors import ClientError

BUNDLE = b'{"format":"smriti-space"}\n' * 1000


async def _sent_headers(source: IO[bytes], *, conversations: bool = False) -> httpx.Headers:
    """What the client sends for an import of `source`; the server refuses it as too large."""
    seen: list[httpx.Request] = []

    async def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        await request.aread()
        return httpx.Response(413, json={"detail": "The bundle is larger than SMRITI_MAX_IMPORT_BYTES."})

    async with SmritiClient("http://127.0.0.1:8000", transport=httpx.MockTransport(answer)) as client:
        upload = client.import_conversations(uuid.uuid4(), source) if conversations else client.import_space(source)
        with pytest.raises(ClientError):
            await upload
    return seen[0].headers


@pytest.mark.parametrize("conversations", [False, True], ids=["a bundle", "conversations"])
async def test_a_file_is_sent_with_its_length(tmp_path: Path, conversations: bool) -> None:
    path = tmp_path / "upload"
    path.write_bytes(BUNDLE)
    with path.open("rb") as source:
        source.read(10)  # from where the file stands, as click hands it over
        headers = await _sent_headers(source, conversations=conversations)
    assert headers["content-length"] == str(len(BUNDLE) - 10)
    assert "transfer-encoding" not in headers


async def test_a_pipe_or_a_buffer_is_sent_chunked() -> None:
    read, write = os.pipe()
    os.write(write, BUNDLE[:1000])
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        headers = await _sent_headers(pipe)
    assert "content-length" not in headers
    assert headers["transfer-encoding"] == "chunked"
    assert "content-length" not in await _sent_headers(io.BytesIO(BUNDLE))
