"""MCP prompts: ready-made first messages a person can pick in an agent host.

Two for now: take over a Space from its HEAD (the hand-off brief) and review a Checkpoint. Each
is made from the same operations as the tools (`handoff_brief`, `get_checkpoint`), so a prompt
says what the tools would.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import mcp_types as types
import msgspec

from smriti.client.mcp.base import Args, Call, shown
from smriti.client.mcp.tools import BY_NAME, CheckpointArgs, HeadArgs
from smriti.client.operations import Handoff, describe_invalid


@dataclass(frozen=True, slots=True)
class PromptSpec:
    prompt: types.Prompt
    render: Callable[[Call, dict[str, str]], Awaitable[str]]


A = TypeVar("A", bound=Args)


def _arguments(kind: type[A], arguments: dict[str, Any]) -> A:
    """The prompt's arguments held to the same rules as the tool's (an over-long `ref` included)."""
    try:
        return msgspec.convert(arguments, kind)
    except msgspec.ValidationError as exc:
        raise PromptError(f"Invalid arguments: {describe_invalid(exc)}") from None


async def _continue(call: Call, arguments: dict[str, str]) -> str:
    args = _arguments(HeadArgs, {"space": arguments["space"], "line": arguments.get("line") or None})
    handoff: Handoff = await BY_NAME["handoff_brief"].run(call, args)
    return (
        "You are taking over the work saved in this Smriti Space. The brief below is its current "
        "state; rely on it, and treat what it does not say as unknown. When you reach a point worth "
        "keeping, save it with the `commit_checkpoint` tool, `expected_head` set to the HEAD named in "
        "the brief.\n\n" + handoff.brief
    )


async def _review(call: Call, arguments: dict[str, str]) -> str:
    named: dict[str, Any] = {key: arguments[key] for key in ("ref", "space", "line") if key in arguments}
    checkpoint = await BY_NAME["get_checkpoint"].run(call, _arguments(CheckpointArgs, named))
    return (
        "Review this saved Checkpoint of someone's reasoning the way a careful colleague would: "
        "decisions that contradict each other or an assumption, decisions that rest on something "
        "recorded nowhere, open questions a decision already answers, entities nothing mentions. "
        "The `review_checkpoint` tool gives the rule-based findings first. Point at items by field "
        "and index, and say what the person could do. Change nothing yourself.\n\n"
        + msgspec.json.format(msgspec.json.encode(checkpoint)).decode()
    )


PROMPTS: tuple[PromptSpec, ...] = (
    PromptSpec(
        types.Prompt(
            name="continue_from_head",
            title="Continue from a Space's HEAD",
            description="Take over the work saved in a Space: its hand-off brief, and how to save back.",
            arguments=[
                types.PromptArgument(name="space", description="The Space's exact name, or its id.", required=True),
                types.PromptArgument(name="line", description="A line's name (default: the default line)."),
            ],
        ),
        _continue,
    ),
    PromptSpec(
        types.Prompt(
            name="review_checkpoint",
            title="Review a Checkpoint",
            description="Look at one saved Checkpoint for contradictions and gaps, without changing it.",
            arguments=[
                types.PromptArgument(
                    name="ref",
                    description="The Checkpoint's id, full hash or hash prefix; or HEAD, HEAD~N of `space`.",
                    required=True,
                ),
                types.PromptArgument(name="space", description="The Space (name or id) HEAD refers to."),
                types.PromptArgument(name="line", description="Its line whose HEAD it is (default: the default line)."),
            ],
        ),
        _review,
    ),
)

PROMPTS_BY_NAME = {spec.prompt.name: spec for spec in PROMPTS}


class PromptError(ValueError):
    """An unknown prompt, or one asked for without its required arguments."""


async def prompt_result(call: Call, name: str, arguments: dict[str, str]) -> types.GetPromptResult:
    spec = PROMPTS_BY_NAME.get(name)
    if spec is None:
        raise PromptError(f"Unknown prompt {shown(name)}. The prompts are: {', '.join(PROMPTS_BY_NAME)}.")
    required = [argument.name for argument in spec.prompt.arguments or [] if argument.required]
    missing = [argument for argument in required if not arguments.get(argument, "").strip()]
    if missing:
        raise PromptError(f"The {name} prompt needs {', '.join(missing)}.")
    text = await spec.render(call, arguments)
    return types.GetPromptResult(
        description=spec.prompt.description,
        messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))],
    )
