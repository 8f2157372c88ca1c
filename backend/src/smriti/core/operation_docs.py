"""What a route documents that Litestar cannot derive from its handler's signature, declared on the
handler itself (`operation_class=documented(…)`), so that a route renamed or moved keeps its docs:
a header read from the raw scope (cheaper than a parameter), a body read as it arrives (a stream
Litestar leaves undescribed), a response that is not the handler's return type."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from litestar.openapi.spec import OpenAPIMediaType, OpenAPIResponse, Operation, Parameter, RequestBody


def documented(
    *,
    parameters: Sequence[Parameter] = (),
    request_body: Mapping[str, OpenAPIMediaType] | None = None,
    responses: Mapping[str, OpenAPIResponse] | None = None,
) -> type[Operation]:
    """An `operation_class` for a route handler: the operation Litestar derives, with `parameters`
    added, the request body read in these media types (required), and `responses` set by status."""
    extra_parameters = tuple(parameters)
    extra_responses = dict(responses or {})

    @dataclass
    class DocumentedOperation(Operation):
        def __post_init__(self) -> None:
            # Copies: the document is refined in place after it is built (`server/openapi.py`), and
            # every app made in one process (tests make many) builds its own from these.
            if extra_parameters:
                self.parameters = [*(self.parameters or []), *copy.deepcopy(extra_parameters)]
            if request_body is not None:
                self.request_body = RequestBody(content=copy.deepcopy(dict(request_body)), required=True)
            if extra_responses:
                self.responses = {**(self.responses or {}), **copy.deepcopy(extra_responses)}

    return DocumentedOperation
