"""A fake OpenAI Chat Completions server that streams, for the streaming rows (bench/streams.py).

    python bench/fake_stream.py PORT

Every POST answers an SSE stream of content chunks (the first at once, then one every interval),
a finish chunk, a usage chunk and `[DONE]`, chunked on a keep-alive connection as a real
provider's are. The last message says
how many and how often: `pieces=40 interval=0.05` (default: 3 pieces, no wait). Plain asyncio,
so that 64 streams at once cost it little next to the server being measured.
"""

from __future__ import annotations

import asyncio
import json
import sys

_HEAD = (
    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n"
    b"transfer-encoding: chunked\r\n\r\n"
)


def _chunk(delta: dict[str, str], finish: str | None = None, usage: dict[str, int] | None = None) -> bytes:
    choices = [] if usage else [{"index": 0, "delta": delta, "finish_reason": finish}]
    body = {"id": "bench", "object": "chat.completion.chunk", "created": 0, "model": "gpt-bench", "choices": choices}
    if usage:
        body["usage"] = usage
    return b"data: " + json.dumps(body).encode() + b"\n\n"


def _asked(body: bytes) -> tuple[int, float]:
    words = dict(word.split("=", 1) for word in json.loads(body)["messages"][-1]["content"].split() if "=" in word)
    return int(words.get("pieces", 3)), float(words.get("interval", 0))


def _wrapped(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while True:  # one request after another on the connection
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.lower().split(b"\r\n")
            length = next((int(line.split(b":", 1)[1]) for line in lines if line.startswith(b"content-length")), 0)
            pieces, interval = _asked(await reader.readexactly(length))
            first = _chunk({"role": "assistant", "content": ""}) + _chunk({"content": "piece 0 "})
            writer.write(_HEAD + _wrapped(first))
            await writer.drain()
            for n in range(1, pieces):
                await asyncio.sleep(interval)
                writer.write(_wrapped(_chunk({"content": f"piece {n} "})))
                await writer.drain()
            usage = {"prompt_tokens": 10, "completion_tokens": pieces, "total_tokens": 10 + pieces}
            end = _chunk({}, "stop") + _chunk({}, usage=usage) + b"data: [DONE]\n\n"
            writer.write(_wrapped(end) + b"0\r\n\r\n")
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def main(port: int) -> None:
    server = await asyncio.start_server(answer, "127.0.0.1", port, backlog=512)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
