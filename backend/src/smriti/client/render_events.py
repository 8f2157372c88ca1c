"""How `smriti watch` shows an event: one line, `id  type  who  what`."""

from __future__ import annotations

from typing import Any


def event_line(event: dict[str, Any]) -> str:
    actor = event.get("actor") or {}
    who = "person" if actor.get("kind") == "human" else f"agent {actor.get('name', '?')}"
    return (
        f"{event.get('id')}  {event.get('type')}  {who}  {_what(event.get('type'), event.get('data') or {})}".rstrip()
    )


def _what(kind: object, data: dict[str, Any]) -> str:  # noqa: PLR0911 (one answer per kind of event)
    if kind == "checkpoint.created":
        message = _first_line(data.get("message")) or str(data.get("commit_id", ""))
        return f"{message} on {data['branch']}" if data.get("branch") else message
    if kind == "line.updated":
        changes = [f"renamed from {data['old_name']}"] if data.get("old_name") else []
        if data.get("is_default"):
            changes.append("now the default")
        if "protected" in data:
            changes.append("protected" if data["protected"] else "no longer protected")
        return " ".join([str(data.get("name", "")), *(f"({c})" for c in changes)])
    if kind in {"session.created", "session.deleted"}:
        return f"Session {data.get('session_id')}"
    if kind == "turns.added":
        return f"Session {data.get('session_id')} Turns {data.get('from_seq')}–{data.get('to_seq')}" + (
            " (stopped)" if data.get("stopped") else ""
        )
    if isinstance(kind, str) and kind.startswith("proposal."):
        return f"#{data.get('number')} {data.get('from')} → {data.get('into')}"
    if "name" in data:  # spaces and lines
        return str(data["name"])
    return ""


def _first_line(text: object) -> str:
    return str(text).strip().splitlines()[0][:120] if text else ""
