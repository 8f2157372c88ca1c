"""MCP tools for Sessions: list, read and delete them; mount a Checkpoint; fork one.

What a Session's next message receives is server state (docs/api.md, "A Session's context lives on
the server"): its base Checkpoint, if any, plus all of its Turns. Mounting a Checkpoint starts a new
Session based on it, the same for every client; from an existing Session it is a fork, linked both
ways.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from smriti.client import sessions
from smriti.client.mcp.base import MAX_REF, Args, Call, Limit, Offset, OptionalLine, Ref, SpaceRef, ToolSpec
from smriti.core.schemas import Page
from smriti.sessions.schemas import MAX_TITLE_FILTER, Session

SessionId = Annotated[
    str, msgspec.Meta(min_length=1, max_length=MAX_REF, description="A Session's id (`list_sessions` shows them).")
]
_IdText = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_REF)]
_TitleText = Annotated[str, msgspec.Meta(max_length=MAX_TITLE_FILTER)]


class ListSessionsArgs(Args):
    space: SpaceRef
    title: Annotated[
        _TitleText | None, msgspec.Meta(description="Only Sessions whose title contains this text (ignoring case).")
    ] = None
    forked_from: Annotated[
        _IdText | None, msgspec.Meta(description="Only the Sessions continued from (forked from) this Session.")
    ] = None
    limit: Limit = 50
    offset: Offset = 0


class SessionArgs(Args):
    session: SessionId


class MountArgs(Args):
    space: SpaceRef
    checkpoint: Annotated[
        Ref,
        msgspec.Meta(
            description="The Checkpoint to mount: an id, hash or prefix, or HEAD, HEAD~N, HEAD^ of the Space."
        ),
    ]
    line: OptionalLine = None
    session: Annotated[
        _IdText | None,
        msgspec.Meta(
            description="A Session of the Space to continue: the new Session is its fork, linked both ways. Omit "
            "for a Session of its own.",
        ),
    ] = None
    title: Annotated[str | None, msgspec.Meta(description="The new Session's title.")] = None


class ForkArgs(Args):
    session: Annotated[
        str, msgspec.Meta(min_length=1, max_length=MAX_REF, description="The id of the Session to fork.")
    ]
    checkpoint: Annotated[Ref, msgspec.Meta(description="The Checkpoint the new Session is based on (a ref).")]
    title: Annotated[
        str | None, msgspec.Meta(description="The new Session's title (default: the original's with \"(fork)\").")
    ] = None


async def _list_sessions(call: Call, args: ListSessionsArgs) -> Page[Session]:
    space = await call.client.resolve_space(args.space)
    origin = sessions.session_id(args.forked_from) if args.forked_from is not None else None
    return await call.client.list_sessions(
        space.id, title=args.title, forked_from=origin, limit=args.limit, offset=args.offset
    )


async def _get_session(call: Call, args: SessionArgs) -> Session:
    return await call.client.get_session(sessions.session_id(args.session))


async def _delete_session(call: Call, args: SessionArgs) -> Session:
    session = await call.client.get_session(sessions.session_id(args.session))
    await call.client.delete_session(session.id)
    return session


async def _mount(call: Call, args: MountArgs) -> Session:
    return await sessions.mount(
        call.client, args.space, args.checkpoint, line=args.line, session=args.session, title=args.title
    )


async def _fork(call: Call, args: ForkArgs) -> Session:
    return await sessions.fork(call.client, args.session, args.checkpoint, title=args.title)


SESSION_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "list_sessions",
        "List a Space's Sessions",
        "The Space's Sessions (conversations with a model), newest first, each with its id, title, Turn count, "
        "base Checkpoint (`base_commit_id`), `forked_from`, the Sessions continued from it and the Checkpoint "
        "saved from it last. `title` filters by a part of the title. Paged: `total` says how many there are.",
        ListSessionsArgs,
        Page[Session],
        _list_sessions,
    ),
    ToolSpec(
        "get_session",
        "Get a Session",
        "One Session and what its next message receives: its base Checkpoint (`base_commit_id`, if any) plus all "
        "of its Turns. `last_saved` is the Checkpoint saved from it last and the line it went to, where its next "
        "save starts; `forked_from` and `continued_in` link it to the Sessions it came from and went on in.",
        SessionArgs,
        Session,
        _get_session,
    ),
    ToolSpec(
        "mount_checkpoint",
        "Mount a Checkpoint",
        "Start a new Session based on a Checkpoint of the Space: every message sent in it gets that Checkpoint's "
        "state plus the new Session's own Turns, the same in every client (the web app included). With "
        "`session`, the new Session continues that one (a fork, linked both ways); the old one is left as it was.",
        MountArgs,
        Session,
        _mount,
        read_only=False,
    ),
    ToolSpec(
        "fork_session",
        "Fork a Session from a Checkpoint",
        "Start a new Session of the same Space based on a Checkpoint: every message sent in it gets that "
        "Checkpoint's state plus the new Session's own Turns. No Turn is copied; `forked_from` names the "
        "original Session and its last Turn.",
        ForkArgs,
        Session,
        _fork,
        read_only=False,
    ),
    ToolSpec(
        "delete_session",
        "Delete a Session",
        "Delete a Session and its Turns. No Checkpoint is touched (one saved from it keeps naming it as its "
        "source); Sessions forked from it keep working. Returns the Session as it was.",
        SessionArgs,
        Session,
        _delete_session,
        read_only=False,
        destructive=True,
    ),
)
