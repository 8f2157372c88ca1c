"""Export and import rows of `make bench` (issue 26): a Space of 10,000 Checkpoints and 100,000
Turns, and one 10× smaller, each imported from a bundle file and exported again over HTTP.

The bundle is written here, hashes and all, by the same functions a commit uses, so the import
checks real hashes: Checkpoints on the default line with a second line branching off every 100
and merged back, Sessions of 100 Turns (~300 bytes each), some Sessions started from a
Checkpoint. Reported per size: rows (lines of the bundle) per second each way, and how much the
server's resident memory rose above its level before the request (sampled every 10 ms).
Target: that rise is about constant in the Space's size (the big Space's ≤ the small one's + 16 MB).
"""

from __future__ import annotations

import argparse
import datetime
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import httpx
import msgspec
from report import Report
from servers import ROOT, Server, server, server_command

from smriti.checkpoints.hashing import chain_hash, encode_content, format_timestamp
from smriti.checkpoints.schemas import CheckpointContent, Task
from smriti.core.ids import uuid7

SIZES = ((1_000, 10_000), (10_000, 100_000))
TURNS_PER_SESSION = 100
ROW = "bundles: {what} {checkpoints:,} Checkpoints, {turns:,} Turns"

_encode = msgspec.json.Encoder().encode


def write_bundle(out: IO[bytes], checkpoints: int, turns: int) -> int:
    """A valid bundle of that size; the number of lines."""
    space_id = uuid7()
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    moment = (start + datetime.timedelta(milliseconds=i) for i in range(10**9))
    lines = 0

    def emit(line: dict[str, object]) -> None:
        nonlocal lines
        out.write(_encode(line) + b"\n")
        lines += 1

    when = format_timestamp(next(moment))
    emit(
        {
            "format": "smriti-space",
            "version": 1,
            "space": {
                "id": space_id,
                "name": f"bench {space_id}",
                "description": "",
                "created_at": when,
                "updated_at": when,
            },
        }
    )
    hashes: dict[uuid.UUID, str] = {}
    main: uuid.UUID | None = None
    side: uuid.UUID | None = None
    counts = {"main": 0, "side": 0}
    ids: list[uuid.UUID] = []
    for index in range(checkpoints):
        on_side = side is not None and 1 <= index % 100 < 10
        merge = side is not None and index % 100 == 10
        parent = side if on_side else main
        commit_id = uuid7()
        created = next(moment)
        content = CheckpointContent(
            message=f"Checkpoint {index}",
            summary=f"Where the work stood after step {index}: " + "details " * 20,
            decisions=[f"decision {index}"],
            tasks=[Task(text=f"task {index}", done=index % 2 == 0)],
            open_questions=[f"question {index}?"],
        )
        encoded = encode_content(content)
        merged = side if merge else None
        commit_hash = chain_hash(
            commit_id=commit_id,
            repo_id=space_id,
            parent_hash=hashes[parent] if parent else None,
            created_at=created,
            content_digest=encoded.sha256,
            merge_parent_hash=hashes[merged] if merged else None,
        )
        hashes[commit_id] = commit_hash
        emit(
            {
                "type": "checkpoint",
                "id": commit_id,
                "parent_commit_id": parent,
                "merge_parent_id": merged,
                "commit_hash": commit_hash,
                "created_at": format_timestamp(created),
                **{name: msgspec.json.decode(raw) for name, raw in encoded.fields.items()},
            }
        )
        ids.append(commit_id)
        if on_side:
            side = commit_id
            counts["side"] += 1
        else:
            main = commit_id
            counts["main"] += 1
            if index % 100 == 0 and index > 0:
                side = commit_id  # the side line starts here: its first Checkpoints follow
    when = format_timestamp(next(moment))
    for name, head, default in (("main", main, True), ("side", side, False)):
        emit(
            {
                "type": "branch",
                "id": uuid.uuid4(),
                "name": name,
                "is_default": default,
                "head_commit_id": head,
                "head_commit_hash": hashes[head] if head else None,
                "commit_count": counts[name],
                "created_at": when,
                "updated_at": when,
            }
        )
    sessions = turns // TURNS_PER_SESSION
    for number in range(sessions):
        session_id = uuid7()
        base = ids[number % len(ids)] if number % 3 == 0 else None
        when = format_timestamp(next(moment))
        emit(
            {
                "type": "session",
                "id": session_id,
                "title": f"Session {number}",
                "provider": "offline",
                "model": "offline",
                "last_seq": TURNS_PER_SESSION,
                "base_commit_id": base,
                "created_at": when,
                "updated_at": when,
            }
        )
        for seq in range(1, TURNS_PER_SESSION + 1):
            user = seq % 2 == 1
            emit(
                {
                    "type": "turn",
                    "session_id": session_id,
                    "sequence_number": seq,
                    "role": "user" if user else "assistant",
                    "content": f"Turn {seq}: " + "words " * 48,
                    "provider": "offline",
                    "model": "offline",
                    "checkpoint_id": base,
                    "input_tokens": None if user else 120,
                    "output_tokens": None if user else 60,
                    "created_at": format_timestamp(next(moment)),
                }
            )
    emit(
        {
            "type": "end",
            "checkpoints": checkpoints,
            "branches": 2,
            "sessions": sessions,
            "turns": sessions * TURNS_PER_SESSION,
        }
    )
    return lines


class PeakRss:
    """The server's resident memory sampled every 10 ms while a request runs."""

    def __init__(self, watch: Server) -> None:
        self._watch = watch
        self._stop = threading.Event()
        self.before = watch.rss()
        self.peak = self.before
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, self._watch.rss())

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def rise_mb(self) -> float:
        return max(0, self.peak - self.before) / 2**20


def _chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as source:
        while chunk := source.read(256 * 1024):
            yield chunk


def run_bundles(report: Report, args: argparse.Namespace, env: dict[str, str], log: Path, work: Path) -> None:
    print(f"bundles ({args.server}, 1 worker):", flush=True)
    sizes = SIZES[:1] if args.quick else SIZES
    with (
        server(server_command(args.server, "smriti"), env, ROOT, log) as smriti,
        httpx.Client(base_url=smriti.url, timeout=600) as client,
    ):
        for checkpoints, turns in sizes:
            path = work / f"bundle-{checkpoints}.ndjson"
            with path.open("wb") as out:
                lines = write_bundle(out, checkpoints, turns)
            size = {"checkpoints": checkpoints, "turns": turns}
            with PeakRss(smriti) as memory:
                started = time.perf_counter()
                response = client.post(
                    "/v5/repos/import", content=_chunks(path), headers={"Content-Type": "application/x-ndjson"}
                )
                seconds = time.perf_counter() - started
            assert response.status_code == 201, response.text[:500]
            space_id = response.json()["id"]
            _record(report, "import", size, lines, seconds, memory.rise_mb, path.stat().st_size)
            with PeakRss(smriti) as memory:
                started = time.perf_counter()
                exported = 0
                with client.stream("GET", f"/v5/repos/{space_id}/export") as stream:
                    for chunk in stream.iter_bytes():
                        exported += len(chunk)
                seconds = time.perf_counter() - started
            _record(report, "export", size, lines, seconds, memory.rise_mb, exported)
            verify = client.get(f"/v4/repos/{space_id}/verify").json()
            assert verify["ok"], verify
            client.delete(f"/v4/repos/{space_id}")
            path.unlink()


def _record(
    report: Report, what: str, size: dict[str, int], lines: int, seconds: float, rise_mb: float, size_bytes: int
) -> None:
    row = {
        "what": what,
        **size,
        "lines": lines,
        "seconds": seconds,
        "rows_per_s": lines / seconds,
        "rss_rise_mb": rise_mb,
        "bytes": size_bytes,
    }
    report.growth.setdefault("bundles", []).append(row)
    print(
        f"  {ROW.format(what=what, **size)}: {lines / seconds:,.0f} rows/s ({seconds:.1f} s, "
        f"{size_bytes / 2**20:.1f} MB), server memory +{rise_mb:.1f} MB",
        flush=True,
    )


def evaluate_bundles(report: Report) -> None:
    rows = report.growth.get("bundles", [])
    for what in ("import", "export"):
        mine = [row for row in rows if row["what"] == what]
        for row in mine:
            report.target(
                f"bundles: {what} rows/s, {row['checkpoints']:,} Checkpoints", row["rows_per_s"], "(reported)", True
            )
        if len(mine) == 2:
            small, big = mine
            rise = big["rss_rise_mb"]
            report.target(
                f"bundles: {what} server memory rise (MB), 10× the Space",
                rise,
                f"≤ {small['rss_rise_mb']:.1f} + 16",
                rise <= small["rss_rise_mb"] + 16,
            )
