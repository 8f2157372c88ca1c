"""Events: every change to a Space, one row written in the change's own transaction (SYSTEM.md §14).

A writer inserts its event with no public id (`id` NULL); the sequencer (`events/sequencer.py`)
numbers committed events 1, 2, 3… in the order it finds them committed. Numbering at insert time
(a sequence) would give ids in the order transactions *started* writing, not the order they
committed: a reader at id 7 could then miss an id 6 that commits later. Numbering what is already
committed cannot, and costs the writer one plain INSERT, with no lock and no index on `id` (the
indexes on `id` are partial: only numbered rows enter them).

- `seq`: insertion order, internal; the order the sequencer numbers a batch in (commits to one
  line take its row lock in turn, so their events' `seq` follow the order they took effect).
- `actor_agent_id` NULL: the person. `actor_name`: the agent's name when the event was written.
- No foreign key on `repo_id`: a Space's events outlive it (`space.deleted` is one of them) until
  retention prunes them.
- `events_pruned`: the highest id retention has removed, so an `after` below it is a 410.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE events (
            seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            id bigint,
            repo_id uuid NOT NULL,
            type text NOT NULL,
            at timestamptz NOT NULL DEFAULT now(),
            actor_agent_id uuid,
            actor_name text NOT NULL,
            data jsonb NOT NULL
        )
        """
    )
    op.execute("CREATE UNIQUE INDEX events_id ON events (id) WHERE id IS NOT NULL")
    op.execute("CREATE INDEX events_repo_id ON events (repo_id, id) WHERE id IS NOT NULL")
    op.execute("CREATE INDEX events_unnumbered ON events (seq) WHERE id IS NULL")
    op.execute("CREATE TABLE events_pruned (one boolean PRIMARY KEY DEFAULT true CHECK (one), through bigint NOT NULL)")
    op.execute("INSERT INTO events_pruned (through) VALUES (0)")


def downgrade() -> None:
    op.execute("DROP TABLE events_pruned")
    op.execute("DROP TABLE events")
