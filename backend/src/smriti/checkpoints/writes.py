"""Writing Checkpoints: one statement per commit, and group commit for concurrent ones.

A commit locks its line's row (a line of Checkpoints of a Space: `branches`), checks the parent
or the expected HEAD, inserts the Checkpoint with its chain hash, moves the line's HEAD (and
the Space's, for its default line) and writes its `checkpoint.created` event, all in one
statement. When commits to different lines arrive while others are being written, they wait for
a moment and then go to PostgreSQL together, as one statement over arrays: per commit,
PostgreSQL's fixed cost of a statement and a transaction (planning, executor start-up, the commit
record, the foreign keys checked at commit) is shared, which more than halves its CPU time per
commit (`docs/performance.md`).

What group commit must not change:
- Each line has at most one commit in flight, in one statement at a time, so commits to a
  line keep their arrival order and "parent defaults to the line's HEAD" still never forks.
  (A commit naming the default line and one naming none are two keys here but one line there:
  the line's row lock, and `busy` in the group statement, keep them apart.)
- Each commit is checked on its own; a refused one (HEAD moved, bad parent, no such Space or
  line) writes nothing and leaves the others in its statement alone.
- A group statement never waits for a lock (`SKIP LOCKED`): a line that another transaction
  holds (a commit from another process, a Space being deleted) is left out and its commit
  written alone, so one busy line never holds up the others, and group statements cannot
  deadlock.
- A statement that PostgreSQL refused as a whole rolled back: each of its commits is then
  tried alone, so one commit's failure is never another's. When the outcome is unknown (the
  connection was lost, a timeout), every commit of the statement gets that error, as a single
  commit would; none is retried, since the statement may have been committed.
- A caller that gives up before its commit was sent is dropped, unwritten, and a commit that
  waited for its turn longer than the pool's acquire timeout is answered like a request that
  found no free connection (`PoolTimeout`, 503), unwritten.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from uuid import UUID

import asyncpg
import msgspec

from smriti.access.caller import Agent
from smriti.checkpoints.commit_sql import GROUP_COMMIT_SQL, JSONB_FIELDS, commit_statement
from smriti.checkpoints.hashing import EncodedContent
from smriti.checkpoints.schemas import CommitCreate
from smriti.core.text import line_key as name_key
from smriti.db.pool import Pool, PoolTimeout


@dataclass(slots=True)
class PendingCommit:
    data: CommitCreate
    content: EncodedContent
    new_id: UUID
    agent: Agent | None = None
    """Made with this agent's key (None: the person's): its statement refuses a protected line
    (`commit_sql._commit_sql`), and its event names the agent."""
    result: asyncio.Future[asyncpg.Record | None] = field(default_factory=lambda: _loop().create_future())
    sent: bool = False

    @property
    def by_agent(self) -> bool:
        return self.agent is not None

    @property
    def line_key(self) -> LineKey:
        branch = self.data.branch
        return (self.data.repo_id, name_key(branch) if branch is not None else None)

    def arguments(self) -> tuple[object, ...]:
        expected = self.data.expected_head_commit_id
        return (
            self.data.repo_id,
            self.data.parent_commit_id,
            expected is not msgspec.UNSET,
            None if expected is msgspec.UNSET else expected,
            self.new_id,
            self.content.sha256,
            self.data.message,
            self.data.summary,
            *(self.content.fields[name] for name in JSONB_FIELDS),
            name_key(self.data.branch) if self.data.branch is not None else None,
            *(() if self.data.merge_parent_id is None else (self.data.merge_parent_id,)),
            *(() if self.agent is None else (self.agent.id, self.agent.name)),
        )


LineKey = tuple[UUID, str | None]
"""A Space and its line's key (`core.text.line_key`; None: the default line)."""


def _loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


class CommitWriter:
    """Writes commits, grouping those that arrive while earlier ones are being written.

    `write` returns the statement's row for the commit: `id` set when it was written; otherwise
    the reason it was refused (see `_commit_sql`'s last SELECT); None when the Space does not exist.
    """

    def __init__(self, pool: Pool, *, max_group: int = 32, max_statements: int = 2) -> None:
        self._pool = pool
        self._max_group = max_group
        self._max_statements = max_statements
        # Waiting commits by line, each line's in arrival order. Taking a group looks at one
        # commit per line, so a hot line with a long queue costs nothing to pass over.
        self._waiting: dict[LineKey, deque[PendingCommit]] = {}
        self._lines_in_flight: set[LineKey] = set()
        self._statements = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self.groups_written = 0
        """Statements that wrote more than one commit (for tests and benchmarks)."""

    async def write(self, pending: PendingCommit) -> asyncpg.Record | None:
        if pending.data.merge_parent_id is not None or pending.by_agent:
            # A merge is rare and has a statement of its own, and so has an agent's commit, which
            # a protected line refuses (the group statement, the person's hot path, does not read
            # `protected`, and names the person in the events it writes); the line's row lock
            # orders it among the line's other commits.
            merged: asyncpg.Record | None = await self._pool.fetchrow(_sql_for(pending), *pending.arguments())
            return merged
        line = pending.line_key
        if self._statements < self._max_statements and not self._waiting and line not in self._lines_in_flight:
            # Nothing to share a statement with: write it from here, without a task (one caller
            # at a time pays nothing for group commit).
            self._statements += 1
            self._lines_in_flight.add(line)
            try:
                row: asyncpg.Record | None = await self._pool.fetchrow(_sql_for(pending), *pending.arguments())
                return row
            finally:
                self._statements -= 1
                self._lines_in_flight.discard(line)
                self._start()
        self._waiting.setdefault(line, deque()).append(pending)
        self._start()
        # A caller that leaves cancels `result`, and an unsent commit whose result is settled is
        # dropped; once sent, the statement's own timeout bounds the wait.
        expiry = asyncio.get_running_loop().call_later(self._pool.acquire_timeout, _expire, pending)
        try:
            return await pending.result
        finally:
            expiry.cancel()

    def _start(self) -> None:
        while self._statements < self._max_statements:
            group = self._take_group()
            if not group:
                return
            self._statements += 1
            self._lines_in_flight.update(p.line_key for p in group)
            task = asyncio.get_running_loop().create_task(self._write(group))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _take_group(self) -> list[PendingCommit]:
        """The oldest waiting commit of each line not in flight, lines taken in turn, at most
        `max_group`. A line that still has commits waiting goes to the back of the queue."""
        group: list[PendingCommit] = []
        served: list[LineKey] = []
        for line, queue in self._waiting.items():
            if len(group) == self._max_group:
                break
            if line in self._lines_in_flight:
                continue
            served.append(line)
            while queue:
                pending = queue.popleft()
                if not pending.result.done():  # else the caller gave up before it was sent: not written
                    pending.sent = True
                    group.append(pending)
                    break
        for line in served:
            queue = self._waiting.pop(line)
            if queue:
                self._waiting[line] = queue
        return group

    async def _write(self, group: list[PendingCommit]) -> None:
        try:
            if len(group) == 1:
                await self._write_alone(group[0])
            else:
                await self._write_group(group)
        except Exception as exc:  # a fault of ours after the statement: every caller hears of it
            for pending in group:
                _settle(pending, exception=exc)
        finally:
            for pending in group:  # only when this task itself was cancelled (shutdown)
                if not pending.result.done():
                    pending.result.cancel()
            self._statements -= 1
            self._lines_in_flight.difference_update(p.line_key for p in group)
            self._start()

    async def _write_alone(self, pending: PendingCommit) -> None:
        try:
            row = await self._pool.fetchrow(_sql_for(pending), *pending.arguments())
        except Exception as exc:
            _settle(pending, exception=exc)
        else:
            _settle(pending, row=row)

    async def _write_group(self, group: Sequence[PendingCommit]) -> None:
        columns = list(zip(*(p.arguments() for p in group), strict=True))
        alone: list[PendingCommit] = []
        try:
            rows = await self._pool.fetch(GROUP_COMMIT_SQL, *(list(column) for column in columns))
        except asyncpg.PostgresError as exc:
            if not _rolled_back(exc):
                _settle_all(group, exc)
                return
            alone = list(group)  # PostgreSQL refused the statement: it rolled back, nothing written
        except Exception as exc:  # lost connection, timeout: it may or may not have been committed
            _settle_all(group, exc)
            return
        else:
            self.groups_written += 1
            for row in rows:
                pending = group[row["n"] - 1]
                if row["busy"]:
                    alone.append(pending)
                else:
                    _settle(pending, row=row)
        # Outside the handler, so that a retry's own error is not chained to the group's. The
        # lines' keys are distinct; two that are one line wait for its row lock, one after the other.
        await asyncio.gather(*(self._write_alone(p) for p in alone if not p.result.done()))


async def write_on(conn: asyncpg.Connection, pending: PendingCommit) -> asyncpg.Record | None:
    """One commit on a connection of the caller's, outside group commit (see `CommitWriter.write`)."""
    row: asyncpg.Record | None = await conn.fetchrow(_sql_for(pending), *pending.arguments())
    return row


def _sql_for(pending: PendingCommit) -> str:
    data = pending.data
    return commit_statement(
        to_line=data.branch is not None,
        merge=data.merge_parent_id is not None,
        on_parent=data.parent_commit_id is not None,
        agent=pending.by_agent,
    )


def _expire(pending: PendingCommit) -> None:
    if not pending.sent and not pending.result.done():
        pending.result.set_exception(PoolTimeout("no commit statement became free within the acquire timeout"))


def _rolled_back(exc: asyncpg.PostgresError) -> bool:
    """Whether PostgreSQL's error means the statement surely wrote nothing. Not so for a lost
    connection, nor for a server shutting the session down: with synchronous replication, that
    can come after the commit was made locally."""
    if isinstance(exc, asyncpg.QueryCanceledError):  # a statement timeout: cancelled, rolled back
        return True
    return not isinstance(exc, asyncpg.PostgresConnectionError | asyncpg.exceptions.OperatorInterventionError)


def _settle_all(group: Sequence[PendingCommit], exception: Exception) -> None:
    for pending in group:
        _settle(pending, exception=exception)


def _settle(pending: PendingCommit, *, row: asyncpg.Record | None = None, exception: Exception | None = None) -> None:
    if pending.result.done():  # the caller stopped waiting; the commit stands or fails all the same
        return
    if exception is not None:
        pending.result.set_exception(exception)
    else:
        pending.result.set_result(row)
