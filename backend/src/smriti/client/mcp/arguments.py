"""Which argument of a tool call is at fault, for the tool error to name it.

A host's JSON may carry what the API can never take: a lone surrogate (`"\\ud800"` is valid JSON,
and the MCP SDK's HTTP transport keeps it as Python text), or a value too large for the API's body.
Both are the caller's to fix, so they are tool errors that say which argument, never an "internal
error" of the server.
"""

from __future__ import annotations

from typing import Any

import msgspec


def not_text(arguments: dict[str, Any]) -> str | None:
    """The path (`decisions[2]`, `metadata.note`) of the first string, key or value, that holds a lone
    surrogate, or None. One encoding of the whole when there is none; the walk only to name it."""
    try:
        msgspec.json.encode(arguments)
    except UnicodeEncodeError:
        pass
    except (TypeError, msgspec.EncodeError, RecursionError):
        return None  # not JSON-shaped: the arguments' validation says what is wrong
    else:
        return None
    stack: list[tuple[str, Any]] = [(name, value) for name, value in reversed(arguments.items())]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str) and not _encodable(value):
            return path
        if isinstance(value, dict):
            for key, item in reversed(value.items()):
                if not _encodable(str(key)):
                    return f"{path} (a key)"
                stack.append((f"{path}.{key}", item))
        elif isinstance(value, list):
            stack.extend((f"{path}[{index}]", item) for index, item in reversed(list(enumerate(value))))
    return None


def largest(arguments: dict[str, Any]) -> tuple[str, int] | None:
    """The argument whose JSON is largest, and its size in bytes: what to shorten when the API
    refuses a body as too large (413)."""
    sizes = []
    for name, value in arguments.items():
        try:
            sizes.append((len(msgspec.json.encode(value)), name))
        except (TypeError, UnicodeEncodeError, msgspec.EncodeError, RecursionError):
            continue
    if not sizes:
        return None
    size, name = max(sizes)
    return name, size


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
