"""The targets of a `make bench` run: each ratio between rows of the same run, its aim, and
whether it held."""

from __future__ import annotations

import lines
from report import Report


def evaluate(report: Report) -> None:
    floor = {c: report.get("floor: one-query", c).rps for c in (1, 16)}
    for row in report.rows:
        if row.group in ("floor", "smriti", "scale", "server") and row.clients in floor:
            row.ratio, row.ratio_to = row.rps / floor[row.clients], "floor one-query"
    for name in ("smriti: GET head", "smriti: GET commit"):
        ratio = report.get(name, 16).rps / floor[16]
        report.target(f"{name[8:]} at 16 clients / floor", ratio, "≥ 0.7", ratio >= 0.7)
    sends = {"send (offline)": "smriti: POST send (offline)", "mounted send": "smriti: POST send (offline), mounted"}
    for label, name in sends.items():
        ratio = report.get(name, 16).rps / floor[16]
        report.target(f"{label} at 16 clients / floor", ratio, "≥ 0.4", ratio >= 0.4)
    # A send reads its context and, after the provider answered, durably writes the exchange: at
    # least one floor read plus one floor write, whatever else it does.
    write = report.get("floor: one durable write", 16).rps
    ratio = 1 / (1 / floor[16] + 1 / write) / floor[16]
    report.target("a bare read then a bare write at 16 clients / floor", ratio, "(ceiling)", True)
    # Where each send's cost goes beyond that ceiling's: the server's CPU, or PostgreSQL's.
    read, written = report.get("floor: one-query", 16), report.get("floor: one durable write", 16)
    for label, name in sends.items():
        send = report.get(name, 16)
        for part, attribute in (("server", "cpu_us"), ("PostgreSQL", "postgres_cpu_us")):
            send_us, read_us, write_us = (getattr(row, attribute) or float("nan") for row in (send, read, written))
            what = f"{label}: {part} CPU / a bare read's + a bare write's, 16 clients"
            report.target(what, send_us / (read_us + write_us), "(reported)", True)
    if any(r.group == "peer" for r in report.rows):
        for clients in (1, 16):
            ratio = report.speedup("smriti: POST commit (~4 KB), beside the peer", "peer: aput (~4 KB)", clients)
            report.target(f"commit over HTTP / LangGraph aput, {clients} caller(s)", ratio, "≥ 1.0", ratio >= 1.0)
            # The most any HTTP write can do here: one durable INSERT behind a bare endpoint.
            ratio = report.speedup("floor: one durable write, beside the peer", "peer: aput (~4 KB)", clients)
            report.target(f"write floor over HTTP / LangGraph aput, {clients} caller(s)", ratio, "(ceiling)", True)
            ratio = report.speedup("smriti in-process: commit (~4 KB)", "peer: aput (~4 KB)", clients)
            report.target(f"commit in-process / LangGraph aput, {clients} caller(s)", ratio, "(like for like)", True)
            ratio = report.speedup("smriti: GET log 20 of 10,000", "peer: alist 20 of 10,000", clients)
            report.target(f"log 20 of 10,000 / LangGraph alist(20), {clients} caller(s)", ratio, "≥ 5", ratio >= 5)
            ratio = report.speedup("smriti: GET head, beside the peer", "peer: aget_tuple latest", clients)
            report.target(f"HEAD over HTTP / LangGraph aget_tuple, {clients} caller(s)", ratio, "(reported)", True)
    for kind in ("context", "send"):
        ratio = report.growth[kind][-1]["ratio"]
        aim = 1.2 if kind == "context" else 1.5
        report.target(f"{kind}: 100,000-Turn Session / 10-Turn one", ratio, f"≤ {aim}", ratio <= aim)
    for what in ("HEAD", "log 10"):
        ratio = report.speedup(f"growth: {what}, 10 Checkpoints", f"growth: {what}, 10,000 Checkpoints", 16)
        report.target(f"{what}: 10,000-Checkpoint Space time / 10-Checkpoint one", ratio, "≤ 1.2", ratio <= 1.2)
    t100 = 1 / report.get("growth: commit, 100 KB artifact", 1).rps
    t1000 = 1 / report.get("growth: commit, 1,000 KB artifact", 1).rps
    report.target("commit time, 1 MB artifact / 100 KB artifact", t1000 / t100, "≤ 10 (linear)", t1000 / t100 <= 10.5)
    inserts = {r["kilobytes"]: r["us_per_op"] for r in report.growth.get("postgres_jsonb_insert", [])}
    if 100 in inserts and 1000 in inserts:
        ratio = inserts[1000] / inserts[100]
        report.target("PostgreSQL alone: 1 MB / 100 KB JSONB insert", ratio, "(reference)", True)
    for clients in (1, 16):
        ratio = report.speedup("smriti: POST commit (~4 KB)", "floor: one durable write", clients)
        report.target(f"commit over HTTP / write floor, {clients} client(s)", ratio, "(reported)", True)
    one, two = report.get("smriti: GET head", 16), report.get("smriti: GET head, 2 processes", 16)
    ratio = two.rps / one.rps
    report.target("GET head: 2 processes / 1 process", ratio, "≥ 1.6", ratio >= 1.6)
    busy = two.machine_busy or 0.0
    report.target("machine CPU busy during the 2-process HEAD run (%)", 100 * busy, "(reported)", True)
    # One process left this share of the machine in use (server, PostgreSQL, wrk together); any
    # number of processes can at most use all of it.
    ceiling = 1 / one.machine_busy if one.machine_busy else float("nan")
    report.target("GET head: most 2 processes can reach here (1 / machine busy)", ceiling, "(ceiling)", True)
    report.target("API process resident memory, 16-client runs (MB)", report.rss_mb, "< 250", report.rss_mb < 250)
    lines.evaluate_lines(report)
