"""The one typed client every agent-facing command goes through.

It speaks the REST API with httpx and decodes every answer into the same msgspec Structs the API
itself is built from, so a field renamed on the server is a type error here, not a silent `None`.
HTTP errors become the typed exceptions of `smriti.client.errors`, carrying the server's `detail`.

The client is asynchronous: the MCP server runs it inside its event loop (in the API process over
`httpx.ASGITransport`, without a network hop), and the CLI runs one `asyncio.run` per command.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import IO, Any
from uuid import UUID

import httpx

from smriti.access.schemas import AgentCreate, AgentKey, NewAgentKey
from smriti.checkpoints.diff import CheckpointDiff
from smriti.checkpoints.schemas import ApplyRequest, Checkpoint, CommitCreate, RestoreRequest, VerifyReport
from smriti.client.errors import InvalidInput, MissingError
from smriti.client.paths import line_path, ref_segment, segment
from smriti.client.sse import STREAM_SILENCE_S, SseMessage, sse_messages
from smriti.client.transport import DEFAULT_TIMEOUT, DEFAULT_URL, ApiTransport, chunks, upload_headers
from smriti.core.schemas import Page
from smriti.lines.schemas import Line, LineCreate, LineUpdate
from smriti.merges.schemas import MergePreview
from smriti.proposals.schemas import (
    Proposal,
    ProposalClose,
    ProposalCreate,
    ProposalDetail,
    ProposalMerge,
    ProposalStatus,
)
from smriti.review.schemas import ReviewRequest, ReviewResult
from smriti.search.schemas import HitKind, SearchPage
from smriti.sessions.schemas import ForkRequest, Session, SessionCreate
from smriti.spaces.schemas import Space, SpaceCreate
from smriti.transcripts.schemas import ConversationImportResult

__all__ = ["DEFAULT_TIMEOUT", "DEFAULT_URL", "MAX_PAGE", "SmritiClient"]

MAX_PAGE = 200
"""The largest page the API hands out by default (`SMRITI_MAX_PAGE_SIZE`)."""


class SmritiClient(ApiTransport):
    """Typed access to one Smriti server: one method per operation (`ApiTransport` says how).

    `token` is sent as `Authorization: Bearer <token>` and never appears in an error or `repr`.
    Use as an async context manager, or call `aclose()`.
    """

    # Spaces ---------------------------------------------------------------------------------

    async def export_space(self, space_id: UUID, sink: IO[bytes]) -> int:
        """Write the Space's bundle (docs/bundles.md) to `sink` as it arrives; the bytes written."""
        written = 0
        with self._reaching():
            async with self._http.stream("GET", f"/v5/repos/{segment(space_id)}/export") as response:
                if response.status_code >= 400:
                    await response.aread()
                    raise self._error(response)
                async for chunk in response.aiter_bytes():
                    sink.write(chunk)
                    written += len(chunk)
        return written

    async def import_space(self, source: IO[bytes]) -> Space:
        """Import a bundle read from `source`, sent as it is read."""
        with self._reaching():
            response = await self._http.post(
                "/v5/repos/import", content=chunks(source), headers=upload_headers(source, "application/x-ndjson")
            )
        return self._decoded("POST", response, Space)  # type: ignore[return-value]

    async def import_conversations(
        self, space_id: UUID, source: IO[bytes], *, media_type: str = "application/json", copies: bool = False
    ) -> ConversationImportResult:
        """An export's conversations (a ChatGPT or Claude data export's conversations.json or its ZIP,
        an Open WebUI export, a Claude Code session's JSONL), read from `source`, as Sessions. The
        server tells them apart by their content; `media_type` only says which it is."""
        with self._reaching():
            response = await self._http.post(
                f"/v5/repos/{segment(space_id)}/import/conversations",
                content=chunks(source),
                headers=upload_headers(source, media_type),
                params={"copies": "true"} if copies else None,
            )
        return self._decoded("POST", response, ConversationImportResult)  # type: ignore[return-value]

    async def search(
        self,
        query: str,
        *,
        space_id: UUID | None = None,
        kind: HitKind | None = None,
        limit: int = 20,
        offset: int = 0,
    ) -> SearchPage:
        """Checkpoints and Turns that match `query` (web-search syntax), best first."""
        params: dict[str, Any] = {"q": query, "limit": limit, "offset": offset}
        if space_id is not None:
            params["repo_id"] = str(space_id)
        if kind is not None:
            params["kind"] = kind
        return await self._get("/v5/search", SearchPage, params=params)

    async def list_spaces(self, *, limit: int = 50, offset: int = 0) -> Page[Space]:
        """One page of Spaces, most recently changed first."""
        return await self._get("/v4/repos", Page[Space], params={"limit": limit, "offset": offset})

    async def all_spaces(self) -> list[Space]:
        """Every Space, paging through the list."""
        spaces: list[Space] = []
        while True:
            page = await self.list_spaces(limit=MAX_PAGE, offset=len(spaces))
            spaces.extend(page.items)
            if not page.items or len(spaces) >= page.total:
                return spaces

    async def get_space(self, space_id: UUID) -> Space:
        return await self._get(f"/v4/repos/{segment(space_id)}", Space)

    async def create_space(self, name: str, description: str = "") -> Space:
        return await self._send("POST", "/v4/repos", SpaceCreate(name=name, description=description), Space)

    async def delete_space(self, space_id: UUID) -> None:
        """Delete a Space with its lines, Checkpoints, Sessions and Turns."""
        await self._request("DELETE", f"/v4/repos/{segment(space_id)}", None)

    async def resolve_space(self, ref: str) -> Space:
        """A Space by id, or by its exact name.

        Names are unique, so a name matches at most one Space. The list is paged (most recently
        changed first); a Space that moves while the pages are read could be missed once, so a
        miss over several pages is checked again before it is reported.
        """
        ref = ref.strip()
        if not ref:
            raise InvalidInput("A Space name or id is required.")
        try:
            space_id = UUID(ref)
        except ValueError:
            space_id = None
        if space_id is not None:
            try:
                return await self.get_space(space_id)
            except MissingError:
                # A Space could (oddly) be named like an id; otherwise report the id as unknown.
                found = await self._find_space_named(ref)
                if found is None:
                    raise
                return found
        found = await self._find_space_named(ref)
        if found is None:
            raise MissingError(f"No Space named {ref!r}. {self.hints.spaces}")
        return found

    async def _find_space_named(self, name: str) -> Space | None:
        for _attempt in range(2):
            seen = 0
            pages = 0
            while True:
                page = await self.list_spaces(limit=MAX_PAGE, offset=seen)
                pages += 1
                for space in page.items:
                    if space.name == name:
                        return space
                seen += len(page.items)
                if not page.items or seen >= page.total:
                    break
            if pages == 1:
                return None
        return None

    # Checkpoints ----------------------------------------------------------------------------

    async def head(self, space_id: UUID, *, line: str | None = None) -> Checkpoint:
        """The Space's HEAD Checkpoint (or the line's); `MissingError` when there is none yet."""
        params = {"branch": line} if line is not None else None
        return await self._get(f"/v4/repos/{segment(space_id)}/head", Checkpoint, params=params)

    async def log(
        self, space_id: UUID, *, limit: int = 20, offset: int = 0, line: str | None = None
    ) -> Page[Checkpoint]:
        """The Space's Checkpoints, newest first; with `line`, that line's history (first parents)."""
        params: dict[str, Any] = {"limit": limit, "offset": offset}
        if line is not None:
            params["branch"] = line
        return await self._get(f"/v4/repos/{segment(space_id)}/commits", Page[Checkpoint], params=params)

    async def get_checkpoint(self, ref: str) -> Checkpoint:
        """A Checkpoint by id, full hash, or unique hash prefix (at least 7 hex digits)."""
        return await self._get(f"/v4/commits/{ref_segment(ref)}", Checkpoint)

    async def commit(self, body: CommitCreate) -> Checkpoint:
        """Save a Checkpoint and move HEAD to it (a compare-and-swap when `expected_head_commit_id` is set)."""
        return await self._send("POST", "/v4/chat/commit", body, Checkpoint)

    async def apply(self, body: ApplyRequest) -> Checkpoint:
        """Save a Checkpoint made of its parent's state plus the changes in `body`."""
        return await self._send("POST", "/v5/checkpoints/apply", body, Checkpoint)

    async def restore(self, ref: str, body: RestoreRequest) -> Checkpoint:
        """Save a Checkpoint equal to `ref` on top of a line's HEAD."""
        return await self._send("POST", f"/v5/commits/{ref_segment(ref)}/restore", body, Checkpoint)

    async def diff(self, from_ref: str, to_ref: str) -> CheckpointDiff:
        return await self._get(f"/v5/commits/{ref_segment(from_ref)}/diff/{ref_segment(to_ref)}", CheckpointDiff)

    async def review(self, commit_id: UUID, *, provider: str | None = None, model: str | None = None) -> ReviewResult:
        body = ReviewRequest(provider=provider, model=model)
        return await self._send("POST", f"/v5/commits/{segment(commit_id)}/review", body, ReviewResult)

    async def verify(self, space_id: UUID, anchors: Sequence[str] = ()) -> VerifyReport:
        """The integrity check; each anchor (a full hash kept elsewhere) must still be in the history."""
        params = {"anchor": list(anchors)} if anchors else None
        return await self._get(f"/v4/repos/{segment(space_id)}/verify", VerifyReport, params=params)

    # Lines ----------------------------------------------------------------------------------

    async def lines(self, space_id: UUID, *, limit: int = MAX_PAGE, offset: int = 0) -> Page[Line]:
        """One page of the Space's lines, the default line first, then by name."""
        return await self._get(
            f"/v4/repos/{segment(space_id)}/branches", Page[Line], params={"limit": limit, "offset": offset}
        )

    async def all_lines(self, space_id: UUID) -> list[Line]:
        lines: list[Line] = []
        while True:
            page = await self.lines(space_id, offset=len(lines))
            lines.extend(page.items)
            if not page.items or len(lines) >= page.total:
                return lines

    async def get_line(self, space_id: UUID, name: str) -> Line:
        return await self._get(line_path(space_id, name), Line)

    async def create_line(self, space_id: UUID, name: str, from_ref: str | None = None) -> Line:
        return await self._send(
            "POST", f"/v4/repos/{segment(space_id)}/branches", LineCreate(name=name, from_ref=from_ref), Line
        )

    async def update_line(self, space_id: UUID, name: str, change: LineUpdate) -> Line:
        return await self._send("PATCH", line_path(space_id, name), change, Line)

    async def delete_line(self, space_id: UUID, name: str) -> None:
        await self._request("DELETE", line_path(space_id, name), None)

    # Merges ---------------------------------------------------------------------------------

    async def merge_preview(self, space_id: UUID, ours: str, theirs: str) -> MergePreview:
        """`theirs` merged into `ours` (each a line's name or a Checkpoint ref of the Space), three-way
        against their nearest common ancestor. Nothing is saved: the merge Checkpoint is a `commit`
        of the resolved state with `merge_parent_id` = theirs and `expected_head_commit_id` = ours."""
        params = {"ours": ours.strip(), "theirs": theirs.strip()}
        return await self._get(f"/v5/repos/{segment(space_id)}/merge", MergePreview, params=params)

    # Sessions -------------------------------------------------------------------------------

    async def list_sessions(
        self,
        space_id: UUID,
        *,
        title: str | None = None,
        forked_from: UUID | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> Page[Session]:
        """One page of the Space's Sessions, newest first; `title` keeps those whose title holds it
        (ignoring case), `forked_from` those continued from one Session."""
        params: dict[str, Any] = {"limit": limit, "offset": offset}
        if title is not None:
            params["q"] = title
        if forked_from is not None:
            params["forked_from"] = str(forked_from)
        return await self._get(f"/v4/repos/{segment(space_id)}/sessions", Page[Session], params=params)

    async def get_session(self, session_id: UUID) -> Session:
        """One Session: its base, what it saved last and on which line, and its lineage."""
        return await self._get(f"/v4/sessions/{segment(session_id)}", Session)

    async def create_session(self, space_id: UUID, *, base_commit_id: UUID | None = None, title: str = "") -> Session:
        """A new Session of the Space; with `base_commit_id`, every message sent in it gets that
        Checkpoint's state plus the Session's own Turns."""
        body = SessionCreate(title=title, base_commit_id=base_commit_id)
        return await self._send("POST", f"/v4/repos/{segment(space_id)}/sessions", body, Session)

    async def delete_session(self, session_id: UUID) -> None:
        """Delete a Session and its Turns; no Checkpoint is touched."""
        await self._request("DELETE", f"/v4/sessions/{segment(session_id)}", None)

    async def fork_session(self, session_id: UUID, checkpoint_id: UUID, title: str | None = None) -> Session:
        """A new Session based on `checkpoint_id`, remembering where it was forked from."""
        body = ForkRequest(checkpoint_id=checkpoint_id, title=title)
        return await self._send("POST", f"/v5/sessions/{segment(session_id)}/fork", body, Session)

    # Agent keys (the person only) ---------------------------------------------------------------

    async def create_agent(self, name: str, *, spaces: list[UUID] | None, write: bool = True) -> NewAgentKey:
        """A new agent key: its `token` is in this answer only."""
        return await self._send("POST", "/v5/agents", AgentCreate(name=name, spaces=spaces, write=write), NewAgentKey)

    async def list_agents(self, *, limit: int = 50, offset: int = 0) -> Page[AgentKey]:
        return await self._get("/v5/agents", Page[AgentKey], params={"limit": limit, "offset": offset})

    async def revoke_agent(self, agent_id: UUID) -> None:
        await self._request("DELETE", f"/v5/agents/{segment(agent_id)}", None)

    # Proposals ------------------------------------------------------------------------------------

    async def open_proposal(self, space_id: UUID, body: ProposalCreate) -> ProposalDetail:
        """Propose merging the line `from` into `into` (default: the default line)."""
        return await self._send("POST", f"/v5/repos/{segment(space_id)}/proposals", body, ProposalDetail)

    async def list_proposals(
        self, space_id: UUID, *, status: ProposalStatus | None = None, limit: int = 50, offset: int = 0
    ) -> Page[Proposal]:
        """One page of the Space's proposals, newest first."""
        params: dict[str, Any] = {"limit": limit, "offset": offset}
        if status is not None:
            params["status"] = status
        return await self._get(f"/v5/repos/{segment(space_id)}/proposals", Page[Proposal], params=params)

    async def get_proposal(self, space_id: UUID, number: int) -> ProposalDetail:
        """A proposal with the merge of its lines' HEADs as they are now."""
        return await self._get(_proposal_path(space_id, number), ProposalDetail)

    async def merge_proposal(self, space_id: UUID, number: int, body: ProposalMerge) -> ProposalDetail:
        """Save the proposal's merge Checkpoint on `into` (the person only)."""
        return await self._send("POST", f"{_proposal_path(space_id, number)}/merge", body, ProposalDetail)

    async def close_proposal(self, space_id: UUID, number: int, reason: str | None = None) -> ProposalDetail:
        return await self._send(
            "POST", f"{_proposal_path(space_id, number)}/close", ProposalClose(reason=reason), ProposalDetail
        )

    # Events --------------------------------------------------------------------------------------

    async def event_stream(self, space_id: UUID | None, after: int | None) -> AsyncIterator[SseMessage]:
        """One connection's Server-Sent Events of the event log (of one Space, or of every Space
        the caller reads), after `after` (None: from the next new event); ends when the server
        ends the stream or the connection drops (`Unreachable`)."""
        path = "/v5/events" if space_id is None else f"/v5/repos/{segment(space_id)}/events"
        headers = {"Accept": "text/event-stream"}
        if after is not None:
            headers["Last-Event-ID"] = str(after)
        # Reading: a keep-alive comes every 15 s, so three missed is a connection that is gone.
        timeout = httpx.Timeout(self.timeout, connect=min(self.timeout, 10.0), read=STREAM_SILENCE_S)
        with self._reaching():
            async with self._http.stream("GET", path, headers=headers, timeout=timeout) as response:
                if response.status_code >= 400:
                    await response.aread()
                    raise self._error(response)
                async for message in sse_messages(response.aiter_lines()):
                    yield message


def _proposal_path(space_id: UUID, number: int) -> str:
    return f"/v5/repos/{segment(space_id)}/proposals/{number}"
