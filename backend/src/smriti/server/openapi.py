"""Make the generated OpenAPI document say what the server actually enforces.

Litestar derives the schemas from the msgspec Structs; two rules the Structs enforce do not
show there, so a client (or a fuzzer) would believe it may send what the server refuses:

- request bodies reject unknown fields (`additionalProperties: false`);
- in a send or a context preview, `checkpoint_id` and `history_base_seq` come together or not at
  all (a mount is a Checkpoint plus its boundary).

It names schemas plainly (`CheckpointPage`, not `Page_smriti.checkpoints.schemas.Checkpoint_`),
states a body field's default in words rather than as `default` (generators such as
openapi-typescript read a `default` as "always present", which is true of a response, not of
what a client may leave out), and writes a one-branch `oneOf` (an optional field) as its branch.

It also adds OpenAPI links (a new Space's id feeds its Sessions and Checkpoints, a Session's id
feeds sends, a Checkpoint's id feeds fetch, review and diff), which tell clients and stateful
testers how the operations chain together.

Nothing here is keyed by a route's path: what one route documents beyond its signature (a header
read from the raw scope, a streamed body) is declared on its handler (`core/operation_docs.py`).
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from litestar import Litestar
from litestar.openapi.spec import (
    Link,
    OpenAPIResponse,
    Reference,
    Schema,
    SecurityScheme,
)
from litestar.openapi.spec.enums import OpenAPIType

from smriti.core.schemas import Request

MOUNTED_REQUESTS = ("ContextRequest", "SendRequest")


def _subclasses(cls: type) -> set[type]:
    found: set[type] = set()
    sub: type
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def _requires_together(first: str, first_type: OpenAPIType, second: str, second_type: OpenAPIType) -> Schema:
    """If `first` is present and not null, `second` must be present and not null."""
    return Schema(
        schema_if=Schema(required=[first], properties={first: Schema(type=first_type)}),
        then=Schema(required=[second], properties={second: Schema(type=second_type)}),
    )


BEARER = "bearerAuth"


def bearer_scheme() -> SecurityScheme:
    return SecurityScheme(
        type="http",
        scheme="bearer",
        description="SMRITI_API_TOKEN, when the server sets one: `Authorization: Bearer <token>`.",
    )


def refine_openapi(app: Litestar) -> None:
    add_links(app)
    add_media_type_refusals(app)
    name_pages_plainly(app)
    components = app.openapi_schema.components.schemas or {}
    request_names = {cls.__name__ for cls in _subclasses(Request)}
    for schema in components.values():
        if isinstance(schema, Schema):
            _visit(schema, _one_branch_as_itself)
    for name, schema in components.items():
        if isinstance(schema, Reference) or name.split(".")[-1] not in request_names:
            continue
        schema.additional_properties = False
        _defaults_in_words(schema)
        if name.split(".")[-1] in MOUNTED_REQUESTS:
            schema.all_of = [
                _requires_together("checkpoint_id", OpenAPIType.STRING, "history_base_seq", OpenAPIType.INTEGER),
                _requires_together("history_base_seq", OpenAPIType.INTEGER, "checkpoint_id", OpenAPIType.STRING),
            ]


_SPACE = "$response.body#/id"
# (operation, status) -> links to the operations its response can feed.
LINKS: dict[tuple[str, str], dict[str, Link]] = {
    ("createSpace", "201"): {
        "getSpace": Link(operation_id="getSpace", parameters={"repo_id": _SPACE}),
        "createSession": Link(operation_id="createSession", parameters={"repo_id": _SPACE}),
        "listSessions": Link(operation_id="listSessions", parameters={"repo_id": _SPACE}),
        "listCheckpoints": Link(operation_id="listCheckpoints", parameters={"repo_id": _SPACE}),
        "verifySpace": Link(operation_id="verifySpace", parameters={"repo_id": _SPACE}),
        "commitCheckpoint": Link(
            operation_id="commitCheckpoint", request_body={"repo_id": _SPACE, "message": "First state"}
        ),
    },
    ("createSession", "201"): {
        "getSession": Link(operation_id="getSession", parameters={"session_id": "$response.body#/id"}),
        "listTurns": Link(operation_id="listTurns", parameters={"session_id": "$response.body#/id"}),
        "sendMessage": Link(
            operation_id="sendMessage", request_body={"session_id": "$response.body#/id", "content": "Hello"}
        ),
        "draftCheckpoint": Link(operation_id="draftCheckpoint", request_body={"session_id": "$response.body#/id"}),
    },
    ("sendMessage", "201"): {
        "previewContext": Link(
            operation_id="previewContext", request_body={"session_id": "$response.body#/user_turn/session_id"}
        ),
        "draftCheckpoint": Link(
            operation_id="draftCheckpoint", request_body={"session_id": "$response.body#/user_turn/session_id"}
        ),
    },
    ("commitCheckpoint", "201"): {
        "getCheckpoint": Link(operation_id="getCheckpoint", parameters={"ref": "$response.body#/id"}),
        "getHead": Link(operation_id="getHead", parameters={"repo_id": "$response.body#/repo_id"}),
        "reviewCheckpoint": Link(operation_id="reviewCheckpoint", parameters={"commit_id": "$response.body#/id"}),
        "diffCheckpoints": Link(
            operation_id="diffCheckpoints",
            parameters={"from_ref": "$response.body#/id", "to_ref": "$response.body#/commit_hash"},
        ),
        "commitChild": Link(
            operation_id="commitCheckpoint",
            request_body={
                "repo_id": "$response.body#/repo_id",
                "message": "Next state",
                "expected_head_commit_id": "$response.body#/id",
            },
        ),
    },
}


def add_media_type_refusals(app: Litestar) -> None:
    """Every operation with a body answers 415 to a body that is not JSON (`request_rules`)."""
    for item in (app.openapi_schema.paths or {}).values():
        for operation in (item.post, item.put, item.patch):
            if operation is None or operation.request_body is None or not operation.responses:
                continue
            refusal = operation.responses.get("400")
            if isinstance(refusal, OpenAPIResponse) and "415" not in operation.responses:
                operation.responses["415"] = OpenAPIResponse(
                    description="The body is not declared as JSON (Content-Type: application/json).",
                    content=refusal.content,
                )


def add_links(app: Litestar) -> None:
    for item in (app.openapi_schema.paths or {}).values():
        for operation in (item.get, item.post, item.patch, item.delete):
            if operation is None or not operation.responses:
                continue
            for status, response in operation.responses.items():
                links = LINKS.get((operation.operation_id or "", status))
                if links and isinstance(response, OpenAPIResponse):
                    response.links = dict(links)


_PAGE = re.compile(r"^Page_smriti\.[a-z_.]+\.([A-Za-z]+)_$")


def name_pages_plainly(app: Litestar) -> None:
    """`Page[Checkpoint]` as `CheckpointPage`, in the components and every reference to them."""
    schemas = app.openapi_schema.components.schemas or {}
    renamed = {old: f"{match.group(1)}Page" for old in schemas if (match := _PAGE.match(old))}
    for old, new in renamed.items():
        schema = schemas.pop(old)
        if isinstance(schema, Schema):
            schema.title = new
        schemas[new] = schema
    refs = {f"#/components/schemas/{old}": f"#/components/schemas/{new}" for old, new in renamed.items()}

    def rename(node: object) -> None:
        if isinstance(node, Reference) and node.ref in refs:
            node.ref = refs[node.ref]

    _visit(app.openapi_schema, rename)


def _one_branch_as_itself(node: object) -> None:
    if isinstance(node, Schema) and node.one_of and len(node.one_of) == 1 and isinstance(node.one_of[0], Schema):
        branch = node.one_of[0]
        node.one_of = None
        for field in dataclasses.fields(branch):
            value = getattr(branch, field.name)
            if value is not None and getattr(node, field.name) is None:
                setattr(node, field.name, value)


def _defaults_in_words(schema: Schema) -> None:
    for prop in (schema.properties or {}).values():
        if isinstance(prop, Schema) and prop.default is not None:
            said = f"Default: {json.dumps(prop.default)}."
            prop.description = f"{prop.description} {said}" if prop.description else said
            prop.default = None


def _visit(node: Any, act: Any, seen: set[int] | None = None) -> None:
    """Call `act` on every object of the OpenAPI document under `node`, depth first."""
    seen = set() if seen is None else seen
    if id(node) in seen:
        return
    seen.add(id(node))
    act(node)
    if isinstance(node, dict):
        for value in node.values():
            _visit(value, act, seen)
    elif isinstance(node, (list, tuple)):
        for value in node:
            _visit(value, act, seen)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for field in dataclasses.fields(node):
            _visit(getattr(node, field.name), act, seen)
