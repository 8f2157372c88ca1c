"""Context assembly, pure (chat/context.py): what the model receives."""

from __future__ import annotations

from smriti.chat.context import HistoryTurn, MountedCheckpoint, Section, assemble, cut_artifact
from smriti.checkpoints.schemas import Artifact, Entity, Task
from tests.support.checkpoints import build_checkpoint


def test_unmounted_context_has_no_system_part() -> None:
    history = [HistoryTurn("user", "hi", sequence_number=1), HistoryTurn("assistant", "hello", sequence_number=2)]
    context = assemble(None, history, "next")
    assert context.system is None
    assert [(m.role, m.content) for m in context.messages] == [
        ("user", "hi"),
        ("assistant", "hello"),
        ("user", "next"),
    ]
    assert [s.name for s in context.sections] == ["history", "message"]


def test_checkpoint_renders_every_field_and_skips_empty_ones() -> None:
    checkpoint = build_checkpoint(
        summary="Sum",
        decisions=["D1", "D2"],
        tasks=[Task("T1", done=True), Task("T2")],
        entities=[Entity("Postgres", kind="db", description="the store"), Entity("Bob")],
        artifacts=[Artifact("a.md", "x" * 2500, "text/markdown")],
    )
    context = assemble(MountedCheckpoint.render(checkpoint), [], "go")
    system = context.system or ""
    assert "## Checkpoint abcdef0: State" in system
    assert "### Decisions (2)\n1. D1\n2. D2" in system
    assert "- [x] T1\n- [ ] T2" in system
    assert "- Postgres (db): the store\n- Bob" in system
    assert "#### a.md (text/markdown)" in system
    assert "[artifact cut: showing 2,000 of 2,500 characters]" in system
    assert "Assumptions" not in system
    assert "Open questions" not in system


def test_artifact_cut_and_token_estimate() -> None:
    assert cut_artifact("short") == "short"
    assert cut_artifact("x" * 2000) == "x" * 2000
    assert cut_artifact("x" * 2001).startswith("x" * 2000 + "\n[artifact cut")
    # About four characters per token, rounded up; the history counts characters it never joins.
    assert Section("summary", "system", 1, "").tokens == 0
    assert Section("summary", "system", 1, "abcde").tokens == 2
    assert Section("history", "history", 3, "", chars=9).tokens == 3
