"""Every MCP tool's input and output schema is JSON Schema any strict validator accepts (issue 44)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from smriti.client.mcp.server import json_schema
from smriti.client.mcp.tools import TOOLS

_SCHEMAS = [
    (f"{spec.name} {side}", json_schema(kind))
    for spec in TOOLS
    for side, kind in (("input", spec.args), ("output", spec.output))
]

# Keywords that hold one subschema, and those that hold a map or a list of them.
_ONE = {"items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else"}
_MAP = {"properties", "$defs", "patternProperties"}
_LIST = {"anyOf", "oneOf", "allOf"}


def _unportable(node: Any, path: str) -> list[str]:
    """Where `node` uses what draft-07 and 2020-12 validators read differently, or a strict one refuses."""
    if isinstance(node, bool):
        return [path]
    found = [f"{path}/prefixItems"] if "prefixItems" in node else []
    for key, value in node.items():
        if key == "additionalProperties" and value is False:
            continue  # "no other fields": the same in every draft, accepted by strict validators
        if key in _ONE:
            found += _unportable(value, f"{path}/{key}")
        elif key in _MAP:
            for name, child in value.items():
                found += _unportable(child, f"{path}/{key}/{name}")
        elif key in _LIST:
            for index, child in enumerate(value):
                found += _unportable(child, f"{path}/{key}/{index}")
    return found


@pytest.mark.parametrize(("name", "schema"), _SCHEMAS, ids=[name for name, _ in _SCHEMAS])
def test_each_tool_schema_is_valid_in_2020_12_and_draft_07_with_no_bare_booleans(
    name: str, schema: dict[str, Any]
) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["type"] == "object", name
    assert _unportable(schema, "") == [], name


def test_a_search_hit_with_highlights_validates_under_both_drafts() -> None:
    [(_, schema)] = [(name, schema) for name, schema in _SCHEMAS if name == "search output"]
    hit = {
        "kind": "turn",
        "repo_id": "00000000-0000-0000-0000-000000000001",
        "commit_id": None,
        "session_id": "00000000-0000-0000-0000-000000000002",
        "sequence_number": 3,
        "field": "content",
        "snippet": "the storage engine",
        "highlights": [[4, 11]],
        "rank": 0.5,
        "commit_hash": None,
        "session_title": "Storage",
        "earlier": [],
    }
    carried = {
        **hit,
        "kind": "checkpoint",
        "commit_id": "00000000-0000-0000-0000-000000000003",
        "commit_hash": "ab" * 32,
        "session_id": None,
        "session_title": None,
        "sequence_number": None,
        "field": "decisions[0]",
        "earlier": [
            {"commit_id": "00000000-0000-0000-0000-000000000004", "commit_hash": "cd" * 32, "field": "decisions[1]"}
        ],
    }
    page = {"items": [hit, carried], "total": 3, "total_is_exact": True, "limit": 10, "offset": 0}
    for validator in (jsonschema.Draft202012Validator, jsonschema.Draft7Validator):
        assert [error.message for error in validator(schema).iter_errors(page)] == []
        # The pairs' length and element type are still checked.
        bad = {**page, "items": [{**hit, "highlights": [[4, 11, 12]]}, {**hit, "highlights": [["a", 1]]}]}
        assert len([e for e in validator(schema).iter_errors(bad) if e.validator in ("maxItems", "type")]) == 2
