"""`created_by` on the wire: who made a line, a Session or a Turn (SYSTEM.md §13).

The row keeps the agent's id (NULL: the person); the answer shows the agent's current name, read
with the row by a primary-key lookup in `agents` (`agent_name_sql`), so renaming an agent renames
it everywhere and costs nothing to write.
"""

from __future__ import annotations

from uuid import UUID

import asyncpg

from smriti.access.schemas import Author


def agent_name_sql(column: str, alias: str = "created_by_name") -> str:
    """A select-list item: the name of the agent whose id is in `column` (NULL for the person).
    The person's rows skip the lookup: a page of them costs what it cost before agents."""
    lookup = f"(SELECT agents.name FROM agents WHERE agents.id = {column})"
    return f"CASE WHEN {column} IS NOT NULL THEN {lookup} END AS {alias}"


def author(agent_id: UUID | None, name: str | None) -> Author | None:
    """`created_by`: None for the person, else the agent with its current name."""
    return None if agent_id is None else Author(kind="agent", id=agent_id, name=name)


def created_by(row: asyncpg.Record) -> Author | None:
    """`created_by` of a row read with `created_by` and `agent_name_sql("…created_by")`."""
    return author(row["created_by"], row["created_by_name"])
