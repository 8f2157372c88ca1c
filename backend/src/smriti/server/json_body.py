"""Request bodies are JSON, decoded strictly into the handler's type (docs/api.md, "Conventions").

Litestar decodes a body to plain values and then converts them into the handler's type with
msgspec's lax rules, so `"4"` became an integer and `"true"` a boolean. Here the body is decoded
straight into that type with msgspec's strict rules (which is also faster: one step, no
intermediate dicts), and Litestar's own conversion then receives the finished Struct and passes
it through unchanged.

Two things msgspec does not refuse are refused here:
- duplicate keys (`{"a": 1, "a": 2}`): msgspec keeps the last, silently, though a Checkpoint's
  hash assumes I-JSON (RFC 7493), whose objects have unique names;
- nesting beyond what the decoders can follow: a 400, not the RecursionError's 500.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
from litestar import Request
from litestar.types import Empty

from smriti.core.errors import BadRequest
from smriti.core.json_checks import duplicate_key

_LONE_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def check_unique_keys(body: bytes) -> None:
    """400 naming the key when any object of the (valid) JSON body has a name twice."""
    try:
        key = duplicate_key(body)
    except RecursionError:
        raise _too_deep() from None
    if key is not None:
        raise BadRequest(
            f"The body's JSON has the key {key!r} twice in one object; each name may appear once.",
            field="body",
        )


def _too_deep() -> BadRequest:
    return BadRequest("The body's JSON is nested too deeply to read.", field="body")


def decode_body(body: bytes, target: Any) -> Any:
    """The body as `target`, strictly: wrong types are refused, not converted."""
    try:
        value = msgspec.json.decode(body, type=target)
    except RecursionError:
        raise _too_deep() from None
    except msgspec.ValidationError:
        raise  # the error mapper names the field
    except msgspec.DecodeError as exc:
        reason = str(exc)
        if _LONE_SURROGATE_ESCAPE.search(body):
            reason += " (it holds a \\ud800–\\udfff escape: a lone UTF-16 surrogate is not text)"
        raise BadRequest(f"The body is not valid JSON: {reason}", field="body") from None
    check_unique_keys(body)
    return value


class StrictRequest(Request[Any, Any, Any]):
    """Litestar's request, with `json()` decoding into the route's `data` type."""

    __slots__ = ()

    async def json(self) -> Any:
        if self._json is Empty:
            field = self.route_handler.parsed_data_field
            target = field.annotation if field is not None else Any
            self._json = decode_body(await self.body(), target)
        return self._json
