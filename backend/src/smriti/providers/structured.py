"""Asking a model for JSON of a given shape: the one way drafting and review do it.

The schema sent is derived from the msgspec Struct the answer is decoded into, so the two never
drift apart. It is made *strict* the way structured-output APIs want it (every property
required, no others allowed, only the keywords they all take), and a field that may be absent
in the Struct is nullable there instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from smriti.providers.base import ChatMessage, ProviderReply, ProviderRequest, upstream_error
from smriti.providers.registry import ProviderChoice
from smriti.providers.windows import refuse_overflow, reply_room, request_texts

T = TypeVar("T")

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
# What every structured-output API takes; msgspec's titles, defaults and bounds are left out.
_KEPT = frozenset({"type", "properties", "required", "additionalProperties", "items", "enum", "anyOf"})


class UnusableOutput(ValueError):
    """The model's answer is not a JSON object of the expected shape."""


def strict_schema(kind: type[Any]) -> dict[str, Any]:
    """The JSON schema of the Struct `kind`, inlined and strict (see the module's docstring)."""
    schema: dict[str, Any] = msgspec.json.schema(kind)
    definitions: dict[str, Any] = schema.pop("$defs", {})

    def strict(node: Any) -> Any:
        if isinstance(node, list):
            return [strict(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return strict(definitions[node["$ref"].rsplit("/", 1)[1]])
        kept = {key: strict(value) for key, value in node.items() if key in _KEPT and key != "properties"}
        if "properties" in node:
            kept["properties"] = {name: strict(value) for name, value in node["properties"].items()}
        simple = kept.get("anyOf")
        if simple and all(set(option) == {"type"} for option in simple):
            kept = {"type": [option["type"] for option in simple]}  # `str | None`: {"type": ["string", "null"]}
        if "enum" in kept and "type" not in kept and all(isinstance(value, str) for value in kept["enum"]):
            kept["type"] = "string"
        if kept.get("type") == "object" and "properties" in kept:
            kept["required"] = list(kept["properties"])
            kept["additionalProperties"] = False
        return kept

    result: dict[str, Any] = strict(schema)
    return result


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


def decode_answer(text: str, kind: type[T]) -> T:
    """The reply decoded as `kind`; UnusableOutput when it holds no such object."""
    try:
        return msgspec.json.decode(json_payload(text).encode(), type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise UnusableOutput(str(exc)) from None


@dataclass(frozen=True, slots=True)
class TooBig:
    """What a request that would not fit the model's window is refused with (400): what it was
    (`what` would not fit), what to do instead, and the field to change."""

    what: str
    then: str
    field: str


async def json_request(
    choice: ProviderChoice,
    window: int | None,
    *,
    system: str,
    content: str,
    answer: type[Any],
    name: str,
    too_big: TooBig,
) -> ProviderRequest:
    """One user message asking for JSON that matches the Struct `answer`; refused before anything
    is sent when it would not fit the model's `window` (`windows.refuse_overflow`)."""
    request = ProviderRequest(
        model=choice.model,
        system=system,
        messages=[ChatMessage(role="user", content=content)],
        max_tokens=reply_room(window, choice.provider.reply_tokens),
        json_schema=strict_schema(answer),
        json_schema_name=name,
    )
    await refuse_overflow(
        request_texts(request),
        choice.provider.name,
        choice.model,
        window,
        room=request.max_tokens,
        what=too_big.what,
        then=too_big.then,
        field=too_big.field,
    )
    return request


def unusable(choice: ProviderChoice, what: str, exc: UnusableOutput, reply: ProviderReply, limit: int) -> Exception:
    """The provider failure for an answer that is not the JSON asked for; when the provider
    stopped it at its `limit`, that is the likelier cause, and what sets the limit is named."""
    if reply.at_limit:
        return upstream_error(
            choice.provider.name,
            f"{what}: the reply stopped at its limit of {limit:,} tokens before the JSON was complete "
            "(SMRITI_MAX_REPLY_TOKENS sets it, up to a quarter of the model's window).",
        )
    return upstream_error(choice.provider.name, f"{what} ({exc})")
