"""Webhooks: each matching event POSTed to a URL the person gave, at least once, in order (SYSTEM.md §14).

- `webhooks`: where to send (`url`), which events (`repo_id` NULL: every Space; `types` NULL:
  every type), the signing key (`secret`, 32 random bytes), and the delivery state, all in the
  row so that deliveries survive a restart and any process can carry on: `delivered_through`
  (the cursor: every matching event up to it is delivered; it starts at the newest event when the
  webhook is made), `next_attempt_at`, the current event's `failing_since` and `attempts`, and
  the lease of the process delivering it (`lease_holder`, `lease_until`: claimed in a short
  transaction, so no connection or row lock is held while the receiver answers). `active` false
  with `disabled_reason`: retries ran out, or the receiver answered 410.
- `webhook_deliveries`: each attempt (event, attempt number, status code or error, when); the
  latest 100 per webhook are kept.
- No foreign key on `webhooks.repo_id`: a Space's webhook outlives it long enough to deliver its
  `space.deleted`.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE webhooks (
            id uuid PRIMARY KEY,
            url text NOT NULL,
            repo_id uuid,
            types text[],
            secret bytea NOT NULL,
            active boolean NOT NULL DEFAULT true,
            disabled_reason text,
            created_at timestamptz NOT NULL DEFAULT now(),
            delivered_through bigint NOT NULL,
            next_attempt_at timestamptz NOT NULL DEFAULT now(),
            failing_since timestamptz,
            attempts integer NOT NULL DEFAULT 0,
            lease_holder uuid,
            lease_until timestamptz
        )
        """
    )
    op.execute("CREATE INDEX webhooks_due ON webhooks (next_attempt_at) WHERE active")
    op.execute(
        """
        CREATE TABLE webhook_deliveries (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
            event_id bigint NOT NULL,
            attempt integer NOT NULL,
            status_code integer,
            error text,
            at timestamptz NOT NULL DEFAULT now()
        )
        """
    )
    op.execute("CREATE INDEX webhook_deliveries_latest ON webhook_deliveries (webhook_id, id)")


def downgrade() -> None:
    op.execute("DROP TABLE webhook_deliveries")
    op.execute("DROP TABLE webhooks")
