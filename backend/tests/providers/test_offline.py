"""The offline provider's reply says what it received (providers/offline.py)."""

from __future__ import annotations

from smriti.chat.context import HistoryTurn, MountedCheckpoint, assemble
from smriti.checkpoints.schemas import Artifact, Entity, Task
from smriti.providers.base import ProviderRequest
from smriti.providers.offline import describe_context
from tests.support.checkpoints import build_checkpoint


def test_offline_reply_counts_every_kind_the_checkpoint_has() -> None:
    checkpoint = build_checkpoint(
        message="Plan: v2",
        summary="Sum\n### Not a section (9)",  # a header-like line inside a field is not counted
        decisions=["D1", "D2", "D3"],
        assumptions=["A1"],
        tasks=[Task("T1"), Task("T2")],
        open_questions=["Q1", "Q2", "Q3", "Q4"],
        entities=[Entity("Postgres")],
        artifacts=[Artifact("a.md", "body", "text/markdown"), Artifact("b.md", "more")],
    )
    context = assemble(MountedCheckpoint.render(checkpoint), [HistoryTurn("user", "hi", sequence_number=3)], "go")
    reply = describe_context(ProviderRequest(model="offline-1", system=context.system, messages=context.messages))
    assert reply.splitlines()[1:] == [
        "Mounted Checkpoint: abcdef0 «Plan: v2» with 3 decisions, 1 assumption, 2 tasks, 4 open questions, "
        "1 entity, 2 artifacts.",
        "History: 1 Turn before your message.",
        "Your message: «go»",
    ]
    bare = assemble(MountedCheckpoint.render(build_checkpoint()), [], "go")
    reply = describe_context(ProviderRequest(model="offline-1", system=bare.system, messages=bare.messages))
    assert "with 0 decisions, 0 assumptions, 0 tasks, 0 open questions, 0 entities, 0 artifacts." in reply


def test_offline_reply_stays_short_whatever_the_checkpoint_and_message() -> None:
    """Its reply previews the Checkpoint's message and the latest message as it does any text, so
    a long one cannot make the reply long (SMRITI_MAX_REPLY_BYTES)."""
    checkpoint = build_checkpoint(message="plan " * 100_000)
    context = assemble(MountedCheckpoint.render(checkpoint), [], "go " * 100_000)
    reply = describe_context(ProviderRequest(model="offline-1", system=context.system, messages=context.messages))
    assert len(reply.encode()) < 1024
    assert "«plan plan" in reply
    assert "«go go" in reply
