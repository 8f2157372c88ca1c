"""The statements of delivery (`deliverer.py`). Each runs alone, in a short transaction: a webhook
is claimed with a lease, the HTTP call happens with no connection held and no row locked, and
the result is written only by the lease's holder."""

from __future__ import annotations

from typing import Final

from smriti.webhooks.store import KEPT_DELIVERIES

# Webhooks that are due, not leased by anyone, and behind the newest event, oldest due first;
# SKIP LOCKED passes over rows another process is claiming at this moment. For each, the next
# event it should be sent: the first after its cursor that matches its Space and types, no
# later than the newest event this statement sees. One with none (every newer event is for
# others) has its cursor moved to that newest event and is not leased, so no later claim scans
# those events again.
CLAIM: Final = """
WITH top AS (
    SELECT coalesce((SELECT max(id) FROM events WHERE id IS NOT NULL), 0) AS id
), due AS (
    SELECT w.id, w.delivered_through, w.repo_id, w.types FROM webhooks w
    WHERE w.active AND w.next_attempt_at <= now()
      AND (w.lease_until IS NULL OR w.lease_until < now())
      AND w.delivered_through < (SELECT id FROM top)
    ORDER BY w.next_attempt_at
    LIMIT $1
    FOR UPDATE SKIP LOCKED
), next AS (
    SELECT due.id AS webhook_id, (
        SELECT e.id FROM events e
        WHERE e.id > due.delivered_through AND e.id <= (SELECT id FROM top)
          AND (due.repo_id IS NULL OR e.repo_id = due.repo_id)
          AND (due.types IS NULL OR e.type = ANY (due.types))
        ORDER BY e.id LIMIT 1
    ) AS event_id
    FROM due
)
UPDATE webhooks w SET
    delivered_through = CASE WHEN next.event_id IS NULL THEN (SELECT id FROM top) ELSE w.delivered_through END,
    lease_holder = CASE WHEN next.event_id IS NULL THEN NULL ELSE $2::uuid END,
    lease_until = CASE WHEN next.event_id IS NULL THEN NULL ELSE now() + make_interval(secs => $3) END
FROM next LEFT JOIN events e ON e.id = next.event_id
WHERE w.id = next.webhook_id
RETURNING w.id, w.url, w.secret, w.attempts, e.id AS event_id, e.type, e.at, e.repo_id,
    e.actor_agent_id, e.actor_name, e.data
"""

# Written with the attempt in one statement, and only while the lease is the caller's: a process
# whose lease ran out (and was taken by another) writes nothing. $3 the event, $4 the status
# code, $5 the error, $6 the attempt's number. The delivery's row is kept with
# the latest KEPT_DELIVERIES - 1 before it (the DELETE sees the table as it was before the INSERT).
_LOG_ATTEMPT: Final = f"""
, logged AS (
    INSERT INTO webhook_deliveries (webhook_id, event_id, attempt, status_code, error)
    SELECT id, $3, $6, $4, $5 FROM done
    RETURNING webhook_id
)
DELETE FROM webhook_deliveries d USING logged
WHERE d.webhook_id = logged.webhook_id AND d.id <= (
    SELECT k.id FROM webhook_deliveries k WHERE k.webhook_id = logged.webhook_id
    ORDER BY k.id DESC OFFSET {KEPT_DELIVERIES - 1} LIMIT 1
)
"""

DELIVERED: Final = (
    """
WITH done AS (
    UPDATE webhooks SET delivered_through = $3, attempts = 0, failing_since = NULL, next_attempt_at = now(),
        lease_holder = NULL, lease_until = NULL
    WHERE id = $1 AND lease_holder = $2
    RETURNING id
)"""
    + _LOG_ATTEMPT
)

# $7: seconds until the next attempt; $8: the retry window in seconds; $9: the reason, when the
# receiver said 410 (disabled at once); $10: the reason, should the window be over. The last
# retry comes when the window ends, whatever the delay, so a webhook is disabled within its
# window and not up to an hour later.
FAILED: Final = (
    """
WITH done AS (
    UPDATE webhooks SET
        attempts = attempts + 1,
        failing_since = coalesce(failing_since, now()),
        next_attempt_at = least(
            now() + make_interval(secs => $7), coalesce(failing_since, now()) + make_interval(secs => $8)
        ),
        active = NOT ($9::text IS NOT NULL OR now() - coalesce(failing_since, now()) >= make_interval(secs => $8)),
        disabled_reason = CASE
            WHEN $9::text IS NOT NULL THEN $9::text
            WHEN now() - coalesce(failing_since, now()) >= make_interval(secs => $8) THEN $10::text
        END,
        lease_holder = NULL, lease_until = NULL
    WHERE id = $1 AND lease_holder = $2
    RETURNING id
)"""
    + _LOG_ATTEMPT
)

RELEASE: Final = "UPDATE webhooks SET lease_holder = NULL, lease_until = NULL WHERE lease_holder = ANY ($1::uuid[])"
