"""The extraction prompt. It carries the Turns in scope and nothing else: no earlier Checkpoint.

Injecting earlier Checkpoint state once made decisions from an unrelated line of work show up in
new drafts; the model is told to extract only what the conversation states.
"""

from __future__ import annotations

from collections.abc import Sequence

from smriti.rules.extract import SourceTurn

DRAFT_SCHEMA_NAME = "checkpoint_draft"

DRAFT_INSTRUCTIONS = """You turn a conversation into a Checkpoint: a saved, structured state of the work.

Extract ONLY what the conversation explicitly states. Do not infer, guess, or add outside knowledge.
Leave a list empty when the conversation has nothing for it.

- message: a short title for this state of the work (at most 72 characters).
- summary: two or three sentences on where the work stands.
- decisions: choices that were actually made ("we'll use PostgreSQL").
- assumptions: things the reasoning takes for granted without debating them.
- tasks: concrete things someone said they will do or must do; done=true only if stated as done.
- open_questions: questions raised and not yet answered in the conversation.
- entities: named things the work is about (people, places, systems, files), with an optional kind
  and a short description taken from the conversation.

Answer with one JSON object that matches the schema, and nothing else."""


def render_transcript(turns: Sequence[SourceTurn]) -> str:
    """The Turns as the model sees them, each under a header with its number and role."""
    first, last = turns[0].sequence_number, turns[-1].sequence_number
    blocks = [f"[Turn {t.sequence_number} · {t.role}]\n{t.content}" for t in turns]
    return f"Conversation (Turns {first}–{last} of this Session):\n\n" + "\n\n".join(blocks)
