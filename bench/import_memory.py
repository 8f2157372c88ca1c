"""Peak memory of the imports (issue 42, item 3): a 200 MB conversations.json and a bundle whose
lines are as long as SMRITI_MAX_BUNDLE_LINE_BYTES allows, each imported over HTTP into a server of
its own (1 worker), whose resident memory is sampled every 10 ms from before the request to the
answer.

Before, a conversation import decoded the whole file (~24 times its size: 99 MB took +2.4 GB) and
a bundle import held each line whole, and 2,000 of them per batch of its write (one 260 MB line:
1.95 GB). Now both hold about one item (a conversation, a line) and one batch at a time, so the
rise is bounded by the largest item, not the file. Targets: the rise stays under 64 MB plus 8 ×
the largest item, which is the whole of what a request may then cost whatever the file's size.

The export is written here, shaped like ChatGPT's (every node with its metadata, ~30 KB a
conversation); the bundle from `bundles.write_bundle`'s Space with one Session of Turns each just
under the line limit (a Turn's text is not hashed, so the bundle checks out).
"""

from __future__ import annotations

import argparse
import datetime
import io
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import httpx
import msgspec
from bundles import PeakRss, write_bundle
from report import Report
from servers import ROOT, server, server_command

from smriti.checkpoints.hashing import format_timestamp

CONVERSATION_BYTES = 200_000_000
LINE_LIMIT = 8 * 2**20
LONG_LINES = 24
"""Turns just under the line limit: ~200 MB of bundle, under the default 256 MiB body limit."""
ROW = "imports: {what}"

_encode = msgspec.json.Encoder().encode


def _conversation(number: int, messages: int = 40) -> dict[str, Any]:
    mapping: dict[str, Any] = {"root": {"id": "root", "message": None, "parent": None, "children": ["n0"]}}
    for n in range(messages):
        node = f"n{n}"
        mapping[node] = {
            "id": node,
            "message": {
                "id": node,
                "author": {"role": "user" if n % 2 == 0 else "assistant", "name": None, "metadata": {}},
                "create_time": 1717000000.5 + n,
                "update_time": None,
                "content": {
                    "content_type": "text",
                    "parts": [f"Message {n} of {number}: " + 'some words, a {brace} and "quotes"\n' * 12],
                },
                "status": "finished_successfully",
                "end_turn": True,
                "weight": 1.0,
                "metadata": {"model_slug": "gpt-4o", "finish_details": {"type": "stop"}, "request_id": "r"},
                "recipient": "all",
                "channel": None,
            },
            "parent": "root" if n == 0 else f"n{n - 1}",
            "children": [f"n{n + 1}"] if n + 1 < messages else [],
        }
    return {
        "title": f"Conversation {number}",
        "create_time": 1717000000.0 + number,
        "update_time": 1717000100.0 + number,
        "mapping": mapping,
        "current_node": f"n{messages - 1}",
    }


def write_export(out: IO[bytes], size: int) -> tuple[int, int]:
    """A ChatGPT conversations.json of about `size` bytes: (conversations, the largest's bytes)."""
    written, count, largest = 1, 0, 0
    out.write(b"[")
    while written < size:
        item = _encode(_conversation(count))
        out.write(b"," + item if count else item)
        written += len(item) + 1
        largest = max(largest, len(item))
        count += 1
    out.write(b"]")
    return count, largest


def write_long_lines(out: IO[bytes], lines: int, limit: int) -> int:
    """A valid bundle whose last Session's Turns are each a line just under `limit` bytes; the
    longest line's bytes."""
    small = io.BytesIO()
    write_bundle(small, checkpoints=10, turns=0)
    *head, end = small.getvalue().splitlines()
    out.write(b"\n".join(head) + b"\n")
    session_id = str(uuid.uuid4())
    when = format_timestamp(datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC))
    session = {"type": "session", "id": session_id, "last_seq": lines, "created_at": when, "updated_at": when}
    out.write(_encode(session) + b"\n")
    longest = 0
    for seq in range(1, lines + 1):
        turn = {
            "type": "turn",
            "session_id": session_id,
            "sequence_number": seq,
            "role": "user" if seq % 2 else "assistant",
            "content": "",
            "created_at": when,
        }
        line = _encode(turn)
        line = line.replace(b'"content":""', b'"content":"' + b"w" * (limit - len(line) - 64) + b'"')
        out.write(line + b"\n")
        longest = max(longest, len(line))
    counts = msgspec.json.decode(end)
    counts.update(sessions=counts["sessions"] + 1, turns=counts["turns"] + lines)
    out.write(_encode(counts) + b"\n")
    return longest


def _chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as source:
        while chunk := source.read(256 * 1024):
            yield chunk


def _import(
    args: argparse.Namespace, env: dict[str, str], log: Path, path: Path, route: str, content_type: str
) -> tuple[float, float, float]:
    """Import `path` into a fresh server: (seconds, its idle resident memory, its peak), in MB."""
    with (
        server(server_command(args.server, "smriti"), env, ROOT, log) as smriti,
        httpx.Client(base_url=smriti.url, timeout=1800) as client,
    ):
        if "{space}" in route:
            space = client.post("/v4/repos", json={"name": f"imports {uuid.uuid4()}"}).json()["id"]
            route = route.format(space=space)
        headers = {"Content-Type": content_type, "Content-Length": str(path.stat().st_size)}
        with PeakRss(smriti) as memory:
            started = time.perf_counter()
            response = client.post(route, content=_chunks(path), headers=headers)
            seconds = time.perf_counter() - started
        assert response.status_code == 201, response.text[:500]
        return seconds, memory.before / 2**20, memory.peak / 2**20


def run_import_memory(report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path) -> None:
    print(f"imports ({args.server}, 1 worker, a server each):", flush=True)
    size = CONVERSATION_BYTES // 4 if args.quick else CONVERSATION_BYTES
    path = work / "conversations.json"
    with path.open("wb") as out:
        conversations, largest = write_export(out, size)
    seconds, idle, peak = _import(args, env, log, path, "/v5/repos/{space}/import/conversations", "application/json")
    _record(report, f"a {path.stat().st_size / 1e6:.0f} MB conversation import", path, largest, seconds, idle, peak)
    print(f"    ({conversations:,} conversations)", flush=True)
    path.unlink()

    path = work / "long-lines.ndjson"
    with path.open("wb") as out:
        longest = write_long_lines(out, LONG_LINES // 4 if args.quick else LONG_LINES, LINE_LIMIT)
    seconds, idle, peak = _import(args, env, log, path, "/v5/repos/import", "application/x-ndjson")
    _record(report, "a bundle with lines at the line limit", path, longest, seconds, idle, peak)
    path.unlink()


def _record(report: Report, what: str, path: Path, largest: int, seconds: float, idle: float, peak: float) -> None:
    row = {
        "what": what,
        "bytes": path.stat().st_size,
        "largest_item_bytes": largest,
        "seconds": seconds,
        "idle_rss_mb": idle,
        "peak_rss_mb": peak,
        "rss_rise_mb": peak - idle,
    }
    report.growth.setdefault("imports", []).append(row)
    print(
        f"  {ROW.format(what=what)}: {path.stat().st_size / 2**20:.0f} MiB in {seconds:.1f} s, largest item "
        f"{largest / 2**20:.2f} MiB; server memory {idle:.0f} MB idle, {peak:.0f} MB at the peak (+{peak - idle:.0f})",
        flush=True,
    )


def evaluate_import_memory(report: Report) -> None:
    for row in report.growth.get("imports", []):
        bound = 64 + 8 * row["largest_item_bytes"] / 2**20
        report.target(
            f"imports: {row['what']}, memory rise (MB)",
            row["rss_rise_mb"],
            f"≤ {bound:.0f}",
            row["rss_rise_mb"] <= bound,
        )
