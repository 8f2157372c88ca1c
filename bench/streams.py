"""The streaming rows of `make bench` (issue 25), also `bench/run.py --only streams`.

A fake OpenAI server that streams (bench/fake_stream.py, its own process) stands for the model;
Smriti runs with OPENAI_BASE_URL pointed at it.

- time to the first piece: straight from the fake (the floor: one POST, until its first content
  chunk) and through Smriti (`POST /v4/chat/send` with `Accept: text/event-stream`, until the
  first `delta` event), the same reply, at 1 client and 16; the difference of the medians is
  Smriti's overhead (its context read, the SDK's request, the relay);
- 64 streams at once, each 40 pieces 50 ms apart (2 s each): whether all complete with `done`,
  the server's CPU time per piece relayed, and its resident memory per open stream (sampled
  while all 64 are open, over the idle server's).

Each client sends in a Session of its own and starts a new one every 20 sends, so the history
(and with it the context read) stays short, as in the send rows.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx
from report import Report, Row
from servers import ROOT, SERVERS, _free_port, server, server_command

HERE = Path(__file__).resolve().parent
FIRST_PIECE_ROW = "streams: time to first piece, {via}"
_SENDS_PER_SESSION = 20


async def _first_piece_direct(client: httpx.AsyncClient, url: str) -> float:
    body = {"model": "gpt-bench", "stream": True, "messages": [{"role": "user", "content": "pieces=3"}]}
    started = time.perf_counter()
    elapsed: float | None = None
    async with client.stream("POST", url, json=body) as response:
        async for line in response.aiter_lines():  # read to the end, as a send does
            if elapsed is None and '"content": "piece' in line:
                elapsed = time.perf_counter() - started
    if elapsed is None:
        raise RuntimeError("the fake sent no piece")
    return elapsed


async def _streamed_send(client: httpx.AsyncClient, smriti: str, session_id: str, content: str) -> tuple[float, str]:
    """Seconds to the first `delta`, and the last event's name."""
    body = {"session_id": session_id, "content": content, "provider": "openai"}
    started = time.perf_counter()
    first: float | None = None
    last = ""
    async with client.stream(
        "POST", f"{smriti}/v4/chat/send", json=body, headers={"accept": "text/event-stream"}
    ) as response:
        if response.status_code != 200:
            raise RuntimeError(f"{response.status_code}: {(await response.aread())[:300]!r}")
        async for line in response.aiter_lines():
            if line.startswith("event: "):
                last = line[len("event: ") :]
                if last == "delta" and first is None:
                    first = time.perf_counter() - started
    return (first if first is not None else float("nan")), last


async def _new_session(client: httpx.AsyncClient, smriti: str, space_id: str) -> str:
    response = await client.post(f"{smriti}/v4/repos/{space_id}/sessions", json={"provider": "openai"})
    response.raise_for_status()
    return str(response.json()["id"])


async def _space(client: httpx.AsyncClient, smriti: str) -> str:
    response = await client.post(f"{smriti}/v4/repos", json={"name": f"streams {time.time_ns()}"})
    response.raise_for_status()
    return str(response.json()["id"])


async def first_pieces(smriti: str, fake: str, clients: int, per_client: int) -> tuple[dict[str, list[float]], float]:
    """Seconds to the first piece, straight and through Smriti, measured in turn; and the
    server's CPU time per streamed send (µs: the context read, the provider call, the relay
    of three pieces, the write of the pair)."""
    limits = httpx.Limits(max_connections=clients * 2, max_keepalive_connections=clients * 2)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        space_id = await _space(client, smriti)

        async def through(times: list[float]) -> None:
            session_id = ""
            for n in range(per_client):
                if n % _SENDS_PER_SESSION == 0:
                    session_id = await _new_session(client, smriti, space_id)
                first, last = await _streamed_send(client, smriti, session_id, "pieces=3")
                if last != "done":
                    raise RuntimeError(f"a stream ended with {last!r}")
                times.append(first)

        async def direct(times: list[float]) -> None:
            for _ in range(per_client):
                times.append(await _first_piece_direct(client, f"{fake}/v1/chat/completions"))

        results: dict[str, list[float]] = {"fake": [], "smriti": []}
        cpu = 0.0
        for _ in range(2):  # alternated, so that neither gets the quieter half of the run
            for via, run in (("fake", direct), ("smriti", through)):
                times: list[float] = []
                before = SERVERS[smriti].cpu_seconds()
                await asyncio.gather(*(run(times) for _ in range(clients)))
                if via == "smriti":
                    cpu += SERVERS[smriti].cpu_seconds() - before
                results[via].extend(times[clients:])  # each client's first is its warm-up
        sends = 2 * clients * per_client
        return results, cpu / sends * 1e6


async def many_streams(smriti: str, count: int, pieces: int, interval: float) -> dict[str, float]:
    watch = SERVERS[smriti]
    limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        space_id = await _space(client, smriti)
        sessions = [await _new_session(client, smriti, space_id) for _ in range(count)]
        idle_rss = watch.rss()
        cpu_before = watch.cpu_seconds()
        content = f"pieces={pieces} interval={interval}"
        tasks = [asyncio.create_task(_streamed_send(client, smriti, s, content)) for s in sessions]
        await asyncio.sleep(pieces * interval / 2)  # all of them open
        open_rss = watch.rss()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        cpu = watch.cpu_seconds() - cpu_before
    completed = sum(1 for r in results if not isinstance(r, BaseException) and r[1] == "done")
    return {
        "completed": completed,
        "errors": count - completed,
        "cpu_us_per_piece": cpu / (count * pieces) * 1e6,
        "rss_kb_per_stream": max(0, open_rss - idle_rss) / count / 1024,
    }


def median_p99_ms(values: list[float]) -> tuple[float, float]:
    """The median and the 99th percentile of `values` (seconds), in milliseconds."""
    ordered = sorted(values)
    return statistics.median(ordered) * 1e3, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e3


def run_streams(report: Report, args: argparse.Namespace, env: dict[str, str], log: Path) -> None:
    print(f"streams ({args.server}, 1 worker):", flush=True)
    port = _free_port()
    fake = subprocess.Popen([sys.executable, str(HERE / "fake_stream.py"), str(port)])
    fake_url = f"http://127.0.0.1:{port}"
    smriti_env = {
        **env,
        "OPENAI_API_KEY": "sk-bench-not-a-key",
        "OPENAI_BASE_URL": f"{fake_url}/v1",
        "SMRITI_OPENAI_MODEL": "gpt-bench",
        "SMRITI_OPENAI_MODELS": "gpt-bench",
        "SMRITI_PROVIDER_MAX_RETRIES": "0",
    }
    per_client = 30 if args.quick else 100
    try:
        with server(server_command(args.server, "smriti"), smriti_env, ROOT, log) as smriti:
            for clients in (1, 16):
                sends = per_client if clients == 1 else 20
                results, cpu_us = asyncio.run(first_pieces(smriti.url, fake_url, clients, sends))
                for via, times in results.items():
                    p50, p99 = median_p99_ms(times)
                    row = Row("streams", FIRST_PIECE_ROW.format(via=via), clients, float("nan"), p50, p99)
                    row.cpu_us = cpu_us if via == "smriti" else None
                    report.rows.append(row)
                    print(f"  first piece via {via}, {clients} clients: p50 {p50:.2f} ms, p99 {p99:.2f} ms", flush=True)
                print(f"  server CPU per streamed send, {clients} clients: {cpu_us:.0f} µs", flush=True)
            many = asyncio.run(many_streams(smriti.url, 64, 40, 0.05))
            report.growth["streams_many"] = [many]
            print(f"  64 streams: {many}", flush=True)
    finally:
        fake.terminate()
        fake.wait(10)


def evaluate_streams(report: Report) -> None:
    for clients, bound in ((1, 2.0), (16, 10.0)):
        overhead = (
            report.get(FIRST_PIECE_ROW.format(via="smriti"), clients).p50_ms
            - report.get(FIRST_PIECE_ROW.format(via="fake"), clients).p50_ms
        )
        what = f"streams: first delta through Smriti minus first piece from the fake, median ms, {clients} client(s)"
        report.target(what, overhead, f"≤ {bound:g}", overhead <= bound)
    [many] = report.growth["streams_many"]
    report.target("streams: 64 at once, completed with done", many["completed"], "= 64", many["completed"] == 64)
    report.target("streams: 64 at once, server CPU µs per piece", many["cpu_us_per_piece"], "(reported)", True)
    memory = many["rss_kb_per_stream"]
    report.target("streams: 64 at once, server memory KB per open stream", memory, "(reported)", True)
