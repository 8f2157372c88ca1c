"""The shape a draft must have, and the clean-up every draft gets, whoever made it."""

from __future__ import annotations

import msgspec

from smriti.core.text import is_blank


class DraftTask(msgspec.Struct):
    text: str
    done: bool = False


class DraftEntity(msgspec.Struct):
    name: str
    kind: str | None = None
    description: str | None = None


class DraftFields(msgspec.Struct):
    """What a model must return (its JSON schema is derived from this). Unknown fields are
    ignored; wrong types are an error."""

    message: str = ""
    summary: str = ""
    decisions: list[str] = []
    assumptions: list[str] = []
    tasks: list[DraftTask] = []
    open_questions: list[str] = []
    entities: list[DraftEntity] = []


def _clean(text: str) -> str:
    return " ".join(text.replace("\x00", "").split())


def _optional(text: str | None) -> str | None:
    return (text.replace("\x00", "").strip() or None) if text else None


def _clean_list(items: list[str]) -> list[str]:
    return [item for item in (_clean(i) for i in items) if not is_blank(item)]


def cleaned(fields: DraftFields) -> DraftFields:
    """One line per item, no NUL, no blank items, a title of at most 200 characters."""
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
