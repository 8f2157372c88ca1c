"""`smriti commit`: save a Checkpoint on a line, starting from its parent's state.

A Checkpoint is a whole snapshot, and an agent that typed only what changed used to get a
Checkpoint without the rest. Now the flags are changes: `--decision` adds a decision to the
parent's, `--remove-decision` takes one away, `--complete-task` ticks one off, and whatever is
not named is carried forward. `--replace` keeps the older meaning (the flags or the JSON are the
whole new state), for an agent that edits a saved Checkpoint as a whole.
"""

from __future__ import annotations

import mimetypes
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from smriti.client import render
from smriti.client.cli.base import Connection, agent_command, decode_json_input, fail, line_option
from smriti.client.errors import ClientError, InvalidInput

if TYPE_CHECKING:
    from smriti.client.api import SmritiClient
    from smriti.client.verbs import Saved

_REMOVALS = (
    ("remove_decisions", "--remove-decision", "decisions"),
    ("remove_assumptions", "--remove-assumption", "assumptions"),
    ("remove_tasks", "--remove-task", "tasks"),
    ("remove_questions", "--remove-question", "open_questions"),
    ("remove_entities", "--remove-entity", "entities"),
    ("remove_artifacts", "--remove-artifact", "artifacts"),
)


def _removal_options(fn: Any) -> Any:
    for parameter, flag, _field in reversed(_REMOVALS):
        what = {"entities": "entity", "artifacts": "artifact"}.get(_field, _field.rstrip("s").replace("_", " "))
        by = "name" if _field in {"entities", "artifacts"} else "text"
        fn = click.option(
            flag, parameter, multiple=True, metavar="TEXT", help=f"Remove the parent's {what} with this {by}."
        )(fn)
    return fn


@agent_command("commit")
@click.argument("space")
@click.option("--message", "-m", help="What this Checkpoint is (required, here or in the JSON).")
@click.option("--summary", help="A new summary: where the work stands, in a few sentences (default: the parent's).")
@click.option("--decision", "decisions", multiple=True, help="Add a decision (repeatable).")
@click.option("--assumption", "assumptions", multiple=True, help="Add an assumption relied on (repeatable).")
@click.option("--task", "tasks", multiple=True, help="Add an open task (repeatable).")
@click.option("--done-task", "done_tasks", multiple=True, help="Add a task that is already done (repeatable).")
@click.option("--question", "questions", multiple=True, help="Add an open question (repeatable).")
@click.option(
    "--artifact",
    "artifacts",
    multiple=True,
    metavar="NAME=PATH",
    help="Attach a text file as an artifact called NAME, replacing one of that name (repeatable; PATH alone "
    "uses the file name).",
)
@_removal_options
@click.option(
    "--complete-task", "complete_tasks", multiple=True, metavar="TEXT", help="Mark the parent's task TEXT done."
)
@click.option(
    "--replace",
    is_flag=True,
    help="Save the flags (or the JSON) as the whole new state instead of changes to the parent's: "
    "whatever they leave out is not in the new Checkpoint.",
)
@click.option(
    "--file",
    "-f",
    "source",
    type=click.File("rb"),
    help="Checkpoint fields as JSON (`-` for stdin; stdin is also read when it is piped and --message is absent). "
    "Its lists are added to the parent's; with --replace it is the whole state.",
)
@line_option("The line to save on (default: the Space's default line).")
@click.option(
    "--expect-head",
    metavar="REF|none",
    help="Only save if the line's HEAD is still REF (`none`: only if the line has no Checkpoint); else exit 4.",
)
@click.option(
    "--parent",
    metavar="REF",
    help="The Checkpoint you built on. It must be the line's HEAD (else exit 4, with the command that starts "
    "a new line there).",
)
@click.option(
    "--author",
    help="Agent name recorded in metadata.author (default: $SMRITI_AGENT_NAME, else the OS user).",
)
def commit(conn: Connection, *, space: str, message: str | None, **options: Any) -> None:
    """Save a Checkpoint in SPACE and move its line's HEAD to it.

    The new Checkpoint starts from its parent's state (the line's HEAD): the flags add, replace
    (--summary), remove and complete items, and everything else is carried forward. The output
    says what changed against the parent. With --replace the flags, or a whole Checkpoint as
    JSON (--file, or piped on stdin), are the entire new state; the JSON may be a saved
    Checkpoint (`smriti head SPACE --json`, edited), whose id, hash, time, parent and authorship
    are left behind. Use --expect-head with the HEAD you read, so that a concurrent save by
    someone else is refused instead of buried.
    """
    from smriti.client import operations, verbs  # noqa: PLC0415

    try:
        content, text = _content(options, message)
    except ClientError as exc:
        fail(exc)
    name = options["author"] or operations.default_author()

    async def work(client: SmritiClient) -> Saved:
        return await verbs.save(
            client,
            space,
            content,
            message=text,
            author=name,
            line=options["line"],
            expect_head=options["expect_head"],
            parent=options["parent"],
            via="cli",
        )

    saved = conn.run(work)
    conn.emit(saved.checkpoint, lambda: render.saved(saved))


def _content(options: dict[str, Any], message: str | None) -> tuple[Any, str]:
    """The commit's content from the flags and the JSON: a whole draft with --replace, else changes."""
    from smriti.checkpoints.schemas import ItemAdditions, ItemRemovals  # noqa: PLC0415
    from smriti.client import operations, verbs  # noqa: PLC0415

    data, label, saved_checkpoint = _read_json(options["source"], use_stdin=message is None)
    removals = {field: list(options[parameter]) for parameter, _flag, field in _REMOVALS}
    complete = list(options["complete_tasks"])
    if options["replace"]:
        used = [flag for parameter, flag, _field in _REMOVALS if options[parameter]]
        used += ["--complete-task"] if complete else []
        if used:
            raise InvalidInput(
                f"{', '.join(used)} change the parent's state; with --replace give the whole new state instead."
            )
    elif saved_checkpoint:
        raise InvalidInput(
            f"{label} is a saved Checkpoint, a whole state; its items would be added to the parent's a second "
            "time. Save it as the new state with --replace, or give only what changes."
        )
    merged = _apply_flags(
        data,
        message=message,
        summary=options["summary"],
        decisions=options["decisions"],
        assumptions=options["assumptions"],
        tasks=[{"text": t, "done": False} for t in options["tasks"]]
        + [{"text": t, "done": True} for t in options["done_tasks"]],
        questions=options["questions"],
        artifacts=[_artifact(spec) for spec in options["artifacts"]],
    )
    draft = operations.draft_from(merged, source=label or "the flags")
    if options["replace"]:
        return draft, draft.message
    changes = verbs.Changes(
        summary=draft.summary if "summary" in merged else None,
        add=ItemAdditions(
            decisions=draft.decisions,
            assumptions=draft.assumptions,
            open_questions=draft.open_questions,
            tasks=draft.tasks,
            entities=draft.entities,
            artifacts=draft.artifacts,
        ),
        remove=ItemRemovals(**removals),
        complete_tasks=complete,
        metadata=draft.metadata,
        parent_commit_id=draft.parent_commit_id,
        expected_head_commit_id=draft.expected_head_commit_id,
    )
    return changes, draft.message


# Commit input ---------------------------------------------------------------------------------

_MEDIA_TYPES = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".py": "text/x-python",
    ".ts": "text/x-typescript",
    ".tsx": "text/x-typescript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".toml": "application/toml",
    ".sql": "text/x-sql",
    ".csv": "text/csv",
    ".html": "text/html",
    ".sh": "text/x-shellscript",
}


def _media_type(path: Path) -> str:
    known = _MEDIA_TYPES.get(path.suffix.lower())
    if known:
        return known
    guessed = mimetypes.guess_type(path.name)[0]
    return guessed if guessed and guessed.startswith("text/") else "text/plain"


def _artifact(spec: str) -> dict[str, str]:
    name, sep, raw_path = spec.partition("=")
    if not sep:
        raw_path, name = spec, Path(spec).name
    name, raw_path = name.strip(), raw_path.strip()
    if not name or not raw_path:
        raise InvalidInput(f"--artifact takes NAME=PATH (or a PATH), got {spec!r}.")
    path = Path(raw_path).expanduser()
    try:
        content = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"--artifact {spec}: {path} is not UTF-8 text; artifacts hold text.") from None
    except OSError as exc:
        raise InvalidInput(f"--artifact {spec}: cannot read {path} ({exc.strerror or exc}).") from None
    return {"name": name, "content": content, "media_type": _media_type(path)}


def _read_json(source: IO[bytes] | None, *, use_stdin: bool) -> tuple[dict[str, Any], str | None, bool]:
    """The JSON object from --file (or from piped stdin when there is no --message), where it came
    from, and whether it is a saved Checkpoint (`smriti head --json`, edited)."""
    if source is not None:
        label = "stdin" if source.name in {"<stdin>", "-"} else f"--file {source.name}"
        raw = source.read()
    elif use_stdin and not sys.stdin.isatty():
        label, raw = "stdin", sys.stdin.buffer.read()
    else:
        return {}, None, False
    if not raw.strip():
        if source is None:
            return {}, None, False  # nothing piped after all; the missing message is reported below
        raise InvalidInput(f"{label} is empty; expected a Checkpoint as a JSON object.")
    data = decode_json_input(raw, label)
    if not isinstance(data, dict):
        raise InvalidInput(f"{label} must hold a JSON object with the Checkpoint's fields, not {_json_kind(data)}.")
    from smriti.client.operations import from_saved  # noqa: PLC0415

    return from_saved(data), label, "id" in data or "commit_hash" in data


def _json_kind(value: Any) -> str:
    kinds = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


def _apply_flags(
    data: dict[str, Any],
    *,
    message: str | None,
    summary: str | None,
    decisions: tuple[str, ...],
    assumptions: tuple[str, ...],
    tasks: list[dict[str, Any]],
    questions: tuple[str, ...],
    artifacts: list[dict[str, str]],
) -> dict[str, Any]:
    merged = dict(data)
    if message is not None:
        merged["message"] = message
    if summary is not None:
        merged["summary"] = summary
    for key, extra in (
        ("decisions", list(decisions)),
        ("assumptions", list(assumptions)),
        ("tasks", tasks),
        ("open_questions", list(questions)),
        ("artifacts", artifacts),
    ):
        if extra:
            existing = merged.get(key, [])
            if not isinstance(existing, list):
                raise InvalidInput(f"`{key}` in the JSON must be a list.")
            merged[key] = [*existing, *extra]
    if "message" not in merged:
        raise InvalidInput('A Checkpoint needs a message: give --message, or a "message" in the JSON.')
    return merged
