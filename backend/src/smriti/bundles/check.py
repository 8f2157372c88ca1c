"""Every hash and link of a bundle checked, line by line, before anything of it is written.

`BundleCheck` reads the lines in order and keeps only what later lines are checked against: per
Checkpoint its hash, its derived columns and its time (a few hundred bytes), per Session its
usage, and the current Session's request ids. The first problem ends the check with
`BundleError`, naming the line (counted from 1) and what is wrong with it. What it keeps is the
plan the write pass (`write.py`) inserts from, so the two passes cannot disagree.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import NamedTuple
from uuid import UUID

import msgspec

from smriti.bundles.format import (
    FORMAT,
    VERSION,
    BranchLine,
    CheckpointLine,
    EndLine,
    Record,
    SessionLine,
    SpaceRecord,
    TurnLine,
    decode_header,
    decode_record,
)
from smriti.checkpoints.hashing import chain_hash, encode_content
from smriti.core.errors import SmritiError
from smriti.core.json_checks import duplicate_key
from smriti.core.text import is_blank, line_key, unstorable_reason
from smriti.lines.schemas import line_name

_KINDS = ("checkpoint", "branch", "session", "turn")
_ORDER = {"checkpoint": 0, "branch": 1, "session": 2, "turn": 2, "end": 3}
_ORDER_WORDS = ("Checkpoints", "lines", "Sessions and their Turns", "the end line")
_PROVIDER_CHARS = 32
_NAME_CHARS = 200


class BundleError(Exception):
    def __init__(self, number: int, detail: str) -> None:
        super().__init__(f"Line {number}: {detail}")
        self.number = number


class Derived(NamedTuple):
    """What a Checkpoint's children are checked against, and its columns that are not hashed."""

    commit_hash: str
    created_at: datetime.datetime
    depth: int
    jump_id: UUID
    jump_depth: int
    merges: int


class Usage(NamedTuple):
    input_tokens: int
    output_tokens: int
    uncounted_replies: int


@dataclass(slots=True)
class Plan:
    """A checked bundle: the Space and what the write pass derives its columns from."""

    space: SpaceRecord
    commits: dict[UUID, Derived] = field(default_factory=dict)
    usage: dict[UUID, Usage] = field(default_factory=dict)
    head: tuple[UUID, str] | None = None
    counts: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(("checkpoint", "branch", "session", "turn"), 0)
    )


def _unique_names(number: int, line: bytes) -> None:
    """A name twice in one object is refused, as in every request (docs/api.md, "Conventions"): msgspec would
    keep the last without a word, and whoever wrote both meant one of them."""
    try:
        key = duplicate_key(line)
    except RecursionError:
        raise BundleError(number, "the line is nested too deeply to read.") from None
    if key is not None:
        raise BundleError(number, f"the name {key!r} appears twice in one object.")


def read_header(number: int, line: bytes) -> Plan:
    _unique_names(number, line)
    try:
        header = decode_header(line)
    except msgspec.DecodeError as exc:
        raise BundleError(number, f"not the header of a Smriti bundle: {exc}") from None
    if header.format != FORMAT:
        raise BundleError(number, f"the format is {header.format!r}, not {FORMAT!r}.")
    if header.version != VERSION:
        raise BundleError(number, f"this server reads version {VERSION} of the format, not {header.version}.")
    space = header.space
    _text(number, "space.name", space.name, required=True, limit=_NAME_CHARS)
    _text(number, "space.description", space.description)
    return Plan(space=space)


def decode(number: int, line: bytes) -> Record:
    _unique_names(number, line)
    try:
        return decode_record(line)
    except msgspec.DecodeError as exc:
        raise BundleError(number, str(exc)) from None


class BundleCheck:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self._stage = 0
        self._ended = False
        self._line_names: set[str] = set()
        self._line_ids: set[UUID] = set()
        self._defaults = 0
        self._line_counts = 0
        self._session: SessionLine | None = None
        self._session_number = 0
        self._next_seq = 1
        self._request_ids: set[str] = set()
        self._tokens = [0, 0, 0]

    def check(self, number: int, record: Record) -> None:
        if self._ended:
            raise BundleError(number, "a line after the end line.")
        kind = _kind(record)
        stage = _ORDER[kind]
        if stage < self._stage:
            raise BundleError(number, f"a {kind} after {_ORDER_WORDS[self._stage]}: {_ORDER_WORDS[stage]} come first.")
        self._stage = stage
        if isinstance(record, CheckpointLine):
            self._checkpoint(number, record)
        elif isinstance(record, BranchLine):
            self._branch(number, record)
        elif isinstance(record, SessionLine):
            self._end_session()
            self._session_line(number, record)
        elif isinstance(record, TurnLine):
            self._turn(number, record)
        else:
            self._end(number, record)
        if kind != "end":
            self.plan.counts[kind] += 1

    def finish(self, number: int) -> Plan:
        if not self._ended:
            raise BundleError(number, "the bundle ends without its end line: it was cut short.")
        return self.plan

    def _checkpoint(self, number: int, line: CheckpointLine) -> None:
        commits = self.plan.commits
        if line.id in commits:
            raise BundleError(number, f"Checkpoint {line.id} appears twice.")
        parent = self._earlier(number, line, line.parent_commit_id, "parent_commit_id")
        merged = self._earlier(number, line, line.merge_parent_id, "merge_parent_id")
        if merged is not None and (parent is None or line.merge_parent_id == line.parent_commit_id):
            raise BundleError(number, "a merge's merge_parent_id must be a second parent, beside parent_commit_id.")
        try:
            encoded = encode_content(line)
        except SmritiError as exc:
            raise BundleError(number, exc.detail) from None
        expected = chain_hash(
            commit_id=line.id,
            repo_id=self.plan.space.id,
            parent_hash=None if parent is None else parent.commit_hash,
            created_at=line.created_at,
            content_digest=encoded.sha256,
            merge_parent_hash=None if merged is None else merged.commit_hash,
        )
        if expected != line.commit_hash:
            raise BundleError(
                number,
                f"Checkpoint {line.id}: its commit_hash {line.commit_hash[:12]}… does not match its content, "
                f"parents and Space ({expected[:12]}…): the bundle was changed or belongs to another Space.",
            )
        commits[line.id] = _derive(line, parent, commits, expected, merged is not None)

    def _earlier(self, number: int, line: CheckpointLine, linked: UUID | None, name: str) -> Derived | None:
        if linked is None:
            return None
        found = self.plan.commits.get(linked)
        if found is None:
            raise BundleError(number, f"{name} {linked} is not a Checkpoint earlier in the bundle.")
        if found.created_at >= line.created_at:
            raise BundleError(number, f"Checkpoint {line.id} is not later than its {name} {linked}.")
        return found

    def _branch(self, number: int, line: BranchLine) -> None:
        # Every id a bundle brings is checked to be its own here: two rows with one id would
        # otherwise meet only in the write, as a 409 saying the id is another Space's.
        if line.id in self._line_ids:
            raise BundleError(number, f"line {line.id} appears twice.")
        self._line_ids.add(line.id)
        try:
            name = line_name(line.name)
        except SmritiError as exc:
            raise BundleError(number, exc.detail) from None
        if name != line.name or line_key(name) in self._line_names:
            raise BundleError(
                number, f"the line name {line.name!r} is not trimmed, or another line's name looks the same."
            )
        self._line_names.add(line_key(name))
        head = None if line.head_commit_id is None else self.plan.commits.get(line.head_commit_id)
        if line.head_commit_id is not None and head is None:
            raise BundleError(number, f"the HEAD of line {name!r}, {line.head_commit_id}, is not in the bundle.")
        if (None if head is None else head.commit_hash) != line.head_commit_hash:
            raise BundleError(number, f"head_commit_hash of line {name!r} is not its HEAD's hash.")
        self._line_counts += line.commit_count
        if line.is_default:
            self._defaults += 1
            if line.head_commit_id is not None and line.head_commit_hash is not None:
                self.plan.head = (line.head_commit_id, line.head_commit_hash)

    def _session_line(self, number: int, line: SessionLine) -> None:
        if line.id in self.plan.usage:
            raise BundleError(number, f"Session {line.id} appears twice.")
        _text(number, "title", line.title)
        _name(number, "provider", line.provider, _PROVIDER_CHARS)
        _name(number, "model", line.model, _NAME_CHARS)
        if line.base_commit_id is not None and line.base_commit_id not in self.plan.commits:
            raise BundleError(number, f"base_commit_id {line.base_commit_id} is not a Checkpoint of the bundle.")
        if (line.forked_from_session_id is None) != (line.forked_from_seq is None):
            raise BundleError(number, "forked_from_session_id and forked_from_seq come together.")
        self._session, self._session_number = line, number
        self.plan.usage[line.id] = Usage(0, 0, 0)
        self._next_seq, self._request_ids, self._tokens = 1, set(), [0, 0, 0]

    def _end_session(self) -> None:
        session = self._session
        if session is None:
            return
        if self._next_seq - 1 != session.last_seq:
            raise BundleError(
                self._session_number,
                f"Session {session.id} has last_seq {session.last_seq} but {self._next_seq - 1} Turns after it.",
            )
        self.plan.usage[session.id] = Usage(*self._tokens)
        self._session = None

    def _turn(self, number: int, turn: TurnLine) -> None:
        if self._session is None or turn.session_id != self._session.id:
            raise BundleError(number, "a Turn must follow its Session's line (or the Turn before it).")
        seq = turn.sequence_number
        if seq != self._next_seq:
            raise BundleError(number, f"Turn {seq} where Turn {self._next_seq} comes next: Turns are numbered 1..n.")
        _text(number, "content", turn.content)
        _name(number, "provider", turn.provider, _PROVIDER_CHARS)
        _name(number, "model", turn.model, _NAME_CHARS)
        _name(number, "request_id", turn.request_id, _NAME_CHARS)
        _turn_rules(number, turn, self.plan.commits)
        if turn.request_id is not None and turn.role == "user":
            if turn.request_id in self._request_ids:
                raise BundleError(number, f"request_id {turn.request_id!r} is used twice in the Session.")
            self._request_ids.add(turn.request_id)
        if turn.role == "assistant":
            self._tokens[0] += turn.input_tokens or 0
            self._tokens[1] += turn.output_tokens or 0
            self._tokens[2] += turn.input_tokens is None or turn.output_tokens is None
        self._next_seq += 1

    def _end(self, number: int, end: EndLine) -> None:
        self._end_session()
        counts = self.plan.counts
        found = (counts["checkpoint"], counts["branch"], counts["session"], counts["turn"])
        if (end.checkpoints, end.branches, end.sessions, end.turns) != found:
            raise BundleError(number, f"the end line counts differ from the lines of the bundle {found}.")
        if self._defaults != 1:
            raise BundleError(number, f"a Space has exactly one default line; the bundle has {self._defaults}.")
        if self._line_counts != counts["checkpoint"]:
            raise BundleError(number, "the lines' commit_count do not add up to the bundle's Checkpoints.")
        self._ended = True


def _turn_rules(number: int, turn: TurnLine, commits: dict[UUID, Derived]) -> None:
    """The checks the turns table holds its rows to, and the links a Turn names."""
    seq = turn.sequence_number
    user = turn.role == "user"
    if turn.checkpoint_id is not None and turn.checkpoint_id not in commits:
        raise BundleError(number, f"checkpoint_id {turn.checkpoint_id} is not a Checkpoint of the bundle.")
    if turn.history_base_seq is not None and turn.history_base_seq >= seq:
        raise BundleError(number, "history_base_seq must name a Turn before this one.")
    if turn.retry_of is not None and not (user and turn.retry_of < seq):
        raise BundleError(number, "retry_of is on a user Turn and names a Turn before it.")
    if turn.stopped and user:
        raise BundleError(number, "only a reply (an assistant Turn) can be stopped.")
    if turn.at_limit and user:
        raise BundleError(number, "only a reply (an assistant Turn) can end at the reply limit.")
    if turn.context_sha256 is not None and user:
        raise BundleError(number, "context_sha256 is on a reply (an assistant Turn).")
    if turn.context_through_seq is not None and not (user and turn.context_through_seq < seq):
        raise BundleError(number, "context_through_seq is on a user Turn and names a Turn before it.")


def _derive(
    line: CheckpointLine, parent: Derived | None, commits: dict[UUID, Derived], digest: str, merge: bool
) -> Derived:
    """Depth, jump link and merge count from the parent's, as a commit derives them (migration
    0007; `checkpoints/verify.py` checks the same rule)."""
    if parent is None:
        return Derived(digest, line.created_at, 0, line.id, 0, 0)
    assert line.parent_commit_id is not None
    jump = commits[parent.jump_id]
    if parent.depth - parent.jump_depth == parent.jump_depth - jump.jump_depth:
        jump_id, jump_depth = jump.jump_id, jump.jump_depth
    else:
        jump_id, jump_depth = line.parent_commit_id, parent.depth
    return Derived(digest, line.created_at, parent.depth + 1, jump_id, jump_depth, parent.merges + merge)


def _kind(record: Record) -> str:
    return type(record).__struct_config__.tag  # type: ignore[return-value]


def _text(number: int, name: str, value: str, *, required: bool = False, limit: int | None = None) -> None:
    reason = unstorable_reason(value)
    if reason is None and required and is_blank(value):
        reason = "is empty"
    if reason is None and limit is not None and len(value) > limit:
        reason = f"is longer than {limit} characters"
    if reason is not None:
        raise BundleError(number, f"{name} {reason}.")


def _name(number: int, name: str, value: str | None, limit: int) -> None:
    if value is not None:
        _text(number, name, value, required=True, limit=limit)
