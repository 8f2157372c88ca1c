"""Search over every Checkpoint and Turn, or one Space's (docs/api.md, "Search").

Two round trips: the ranked page of hits, then the snippets of that page alone (ts_headline
reads the text again, which is worth doing for twenty hits and not for ten thousand). A deleted
Space's rows are gone with it (ON DELETE CASCADE), so nothing of it can be found; one deleted
between the two statements has no snippet, and its hits are left out of the page. No
transaction holds the two together: its BEGIN and COMMIT would be two more round trips on every
search, for a race whose only effect is a page one hit short.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import asyncpg

from smriti.access.scope import visible_spaces
from smriti.core.errors import BadRequest, NotFound
from smriti.db.pool import Pool
from smriti.search import sql
from smriti.search.grouping import grouped
from smriti.search.schemas import HitKind, SearchHit, SearchPage
from smriti.search.snippets import plain_snippet

MAX_QUERY_CHARS = 500

# A hit's identity: (kind, Checkpoint id or Session id, Turn number or 0).
HitKey = tuple[str, UUID, int]
# Where it matched, the snippet, its highlights, and the hit's name: a Checkpoint's hash, a Session's title.
Snippet = tuple[str, str, list[tuple[int, int]], str]


@dataclass(frozen=True, slots=True)
class SearchQuery:
    text: str
    repo_id: UUID | None = None
    kind: HitKind | None = None
    limit: int = 20
    offset: int = 0


def _bad_query(rule: str) -> BadRequest:
    return BadRequest(f"Invalid request. q: {rule}", field="q", source="query", field_message=rule)


def _check_text(text: str) -> None:
    if not text.strip():
        raise _bad_query("Expected words to search for, got nothing")
    if len(text) > MAX_QUERY_CHARS:
        raise _bad_query(f"Expected at most {MAX_QUERY_CHARS} characters, got {len(text)}")
    if "\x00" in text:
        raise _bad_query("Expected text without NUL (\\u0000) characters")


def _key(row: asyncpg.Record) -> HitKey:
    if row["kind"] == "checkpoint":
        return ("checkpoint", row["commit_id"], 0)
    return ("turn", row["session_id"], row["sequence_number"])


@dataclass(frozen=True, slots=True)
class SearchService:
    pool: Pool

    async def search(self, query: SearchQuery) -> SearchPage:
        """Usually two statements: the ranked page, then its snippets. Only an empty page asks
        more: whether the query had any words, whether the Space exists, and the counts a page
        past the last hit has no row to carry."""
        _check_text(query.text)
        visible = visible_spaces()  # an agent's key may reach only some Spaces (access/scope.py)
        space: list[object]
        if query.repo_id is not None:
            if visible is not None and query.repo_id not in visible:
                raise _no_space(query.repo_id)  # as for a Space that is not there
            space, statement = [query.repo_id], sql.hits_sql(query.kind, True)
        elif visible is not None:
            space, statement = [list(visible)], sql.hits_sql(query.kind, False, in_spaces=True)
        else:
            space, statement = [], sql.hits_sql(query.kind, False)
        async with self.pool.acquire() as conn:
            rows = await conn.fetch(statement, query.text, query.limit, query.offset, *space)
            if rows:
                counts: asyncpg.Record | None = rows[0]
                snippets = await _snippets(conn, query.text, rows)
            else:
                await _refuse_empty(conn, query)
                counts = await conn.fetchrow(statement, query.text, 1, 0, *space) if query.offset else None
                snippets = {}
        checkpoints, turns = (counts["checkpoints"], counts["turns"]) if counts is not None else (0, 0)
        return SearchPage(
            # A hit whose snippet is gone was deleted (its Space) between the two statements.
            items=grouped(
                [(_hit(row, snippets[key]), row["created_at"]) for row in rows if (key := _key(row)) in snippets]
            ),
            total=min(checkpoints, sql.MAX_RANKED) + min(turns, sql.MAX_RANKED),
            total_is_exact=max(checkpoints, turns) <= sql.MAX_RANKED,
            limit=query.limit,
            offset=query.offset,
        )


async def _refuse_empty(conn: asyncpg.Connection, query: SearchQuery) -> None:
    """Nothing found, said only when it is true: a query with no words, or a Space that is not
    there, is an error instead."""
    if not await conn.fetchval(sql.QUERY_WORDS, query.text):
        raise _bad_query(
            f"{query.text!r} has no words to search for: only common words (such as 'the') or "
            "punctuation, which the index leaves out"
        )
    if query.repo_id is not None and not await conn.fetchval(
        "SELECT EXISTS (SELECT 1 FROM repos WHERE id = $1)", query.repo_id
    ):
        raise _no_space(query.repo_id)


def _no_space(repo_id: UUID) -> NotFound:
    return NotFound(f"Space {repo_id} not found.")


def _hit(row: asyncpg.Record, snippet: Snippet) -> SearchHit:
    field, text, highlights, label = snippet
    checkpoint = row["kind"] == "checkpoint"
    return SearchHit(
        kind=row["kind"],
        repo_id=row["repo_id"],
        commit_id=row["commit_id"],
        commit_hash=label if checkpoint else None,
        session_id=row["session_id"],
        session_title=None if checkpoint else label,
        sequence_number=row["sequence_number"],
        field=field,
        snippet=text,
        highlights=highlights,
        rank=round(float(row["rank"]), 6),
        earlier=[],
    )


async def _snippets(conn: asyncpg.Connection, text: str, rows: list[asyncpg.Record]) -> dict[HitKey, Snippet]:
    commits = [row["commit_id"] for row in rows if row["kind"] == "checkpoint"]
    turns = [(row["session_id"], row["sequence_number"]) for row in rows if row["kind"] == "turn"]
    found: dict[HitKey, Snippet] = {}
    runs = not text.isascii()
    if commits:
        for part in await conn.fetch(sql.CHECKPOINT_SNIPPETS[runs], commits, text, sql.HEADLINE_OPTIONS):
            found[("checkpoint", part["id"], 0)] = (
                part["field"],
                *plain_snippet(part["headline"], part["runs"]),
                part["label"],
            )
    if turns:
        sessions, numbers = zip(*turns, strict=True)
        for part in await conn.fetch(
            sql.TURN_SNIPPETS[runs], list(sessions), list(numbers), text, sql.HEADLINE_OPTIONS
        ):
            found[("turn", part["session_id"], part["sequence_number"])] = (
                part["field"],
                *plain_snippet(part["headline"], part["runs"]),
                part["label"],
            )
    return found
