"""Reading a provider's draft: JSON, fenced JSON, or JSON inside prose; validated with msgspec."""

from __future__ import annotations

import re

import msgspec

from smriti.core.text import is_blank

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


class DraftTask(msgspec.Struct):
    text: str
    done: bool = False


class DraftEntity(msgspec.Struct):
    name: str
    kind: str | None = None
    description: str | None = None


class DraftFields(msgspec.Struct):
    """What a provider must return. Unknown fields are ignored; wrong types are an error."""

    message: str = ""
    summary: str = ""
    decisions: list[str] = []
    assumptions: list[str] = []
    tasks: list[DraftTask] = []
    open_questions: list[str] = []
    entities: list[DraftEntity] = []


class UnusableOutput(ValueError):
    """The provider's answer is not a JSON object of the expected shape."""


def json_payload(text: str) -> str:
    """The JSON object in a reply: the reply itself, a fenced block, or the outermost braces."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return stripped
    fenced = _FENCE.search(stripped)
    if fenced:
        return fenced.group(1).strip()
    start, end = stripped.find("{"), stripped.rfind("}")
    if start != -1 and end > start:
        return stripped[start : end + 1]
    raise UnusableOutput("the reply holds no JSON object")


def _clean(text: str) -> str:
    return " ".join(text.replace("\x00", "").split())


def _optional(text: str | None) -> str | None:
    return (text.replace("\x00", "").strip() or None) if text else None


def _clean_list(items: list[str]) -> list[str]:
    return [item for item in (_clean(i) for i in items) if not is_blank(item)]


def parse_draft(text: str) -> DraftFields:
    try:
        fields = msgspec.json.decode(json_payload(text).encode(), type=DraftFields)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise UnusableOutput(str(exc)) from None
    return DraftFields(
        message="" if is_blank(_clean(fields.message)) else _clean(fields.message)[:200],
        summary=fields.summary.replace("\x00", "").strip(),
        decisions=_clean_list(fields.decisions),
        assumptions=_clean_list(fields.assumptions),
        tasks=[DraftTask(_clean(t.text), t.done) for t in fields.tasks if not is_blank(_clean(t.text))],
        open_questions=_clean_list(fields.open_questions),
        entities=[
            DraftEntity(_clean(e.name), _optional(e.kind), _optional(e.description))
            for e in fields.entities
            if not is_blank(_clean(e.name))
        ],
    )
