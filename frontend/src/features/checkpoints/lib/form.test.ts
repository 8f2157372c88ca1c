import { describe, expect, it } from "vitest";
import type { Checkpoint } from "@/api/models";
import type { CheckpointDraft } from "@/api/v5";
import { emptyForm, formFromCheckpoint, formFromDraft, formToCommit, validateForm } from "./form";

const draft: CheckpointDraft = {
  message: "Storage plan",
  summary: "We chose a database.",
  decisions: ["Use PostgreSQL"],
  assumptions: ["One region"],
  tasks: [{ text: "Write the migration", done: false }, { text: "Pick a host" }],
  open_questions: ["Branching?"],
  entities: [{ name: "PostgreSQL", kind: "database", description: null }, { name: "S3" }],
  source: { session_id: "s-1", from_seq: 1, to_seq: 6 },
  drafted_by: { provider: "offline", model: "offline-1" },
};

describe("form ↔ API mapping", () => {
  it("carries the parent's metadata forward, but not how the parent itself was made", () => {
    const values = { ...emptyForm("Asha"), message: "next" };
    const body = formToCommit(values, {
      spaceId: "s",
      expectedHead: "p",
      baseMetadata: {
        team: "core",
        author: { kind: "agent", name: "planner" },
        source: { session_id: "x", from_seq: 1, to_seq: 2 },
        drafted_by: { provider: "offline", model: "offline-1" },
        restored_from: { commit_id: "c", commit_hash: "h" },
      },
    });
    expect(body.metadata).toEqual({ team: "core", author: { kind: "human", name: "Asha" } });
  });

  it("fills the form from a draft, nulls becoming empty inputs", () => {
    const values = formFromDraft(draft, "Asha");
    expect(values.message).toBe("Storage plan");
    expect(values.openQuestions).toEqual(["Branching?"]);
    expect(values.tasks).toEqual([
      { text: "Write the migration", done: false },
      { text: "Pick a host", done: false },
    ]);
    expect(values.entities).toEqual([
      { name: "PostgreSQL", kind: "database", description: "" },
      { name: "S3", kind: "", description: "" },
    ]);
    expect(values.authorName).toBe("Asha");
  });

  it("maps an edited draft to the commit body with provenance and the author", () => {
    const values = formFromDraft(draft, "  Asha ");
    values.decisions.push("  Keep backups  ", "   ");
    values.tasks[1] = { text: "Pick a host", done: true };
    values.artifacts.push({ name: " plan.md ", content: "# Plan\n", mediaType: "" });
    const body = formToCommit(values, {
      spaceId: "space-1",
      expectedHead: "head-1",
      provenance: { source: draft.source, draftedBy: draft.drafted_by },
    });
    expect(body).toEqual({
      repo_id: "space-1",
      message: "Storage plan",
      summary: "We chose a database.",
      decisions: ["Use PostgreSQL", "Keep backups"],
      assumptions: ["One region"],
      open_questions: ["Branching?"],
      tasks: [
        { text: "Write the migration", done: false },
        { text: "Pick a host", done: true },
      ],
      entities: [
        { name: "PostgreSQL", kind: "database", description: null },
        { name: "S3", kind: null, description: null },
      ],
      artifacts: [{ name: "plan.md", content: "# Plan\n", media_type: "text/plain" }],
      metadata: {
        author: { kind: "human", name: "Asha" },
        source: { session_id: "s-1", from_seq: 1, to_seq: 6 },
        drafted_by: { provider: "offline", model: "offline-1" },
      },
      expected_head_commit_id: "head-1",
    });
  });

  it("sends expected_head_commit_id null for the first Checkpoint, and no provenance for a hand-written one", () => {
    const values = { ...emptyForm(""), message: "First", tasks: [{ text: "  ", done: false }] };
    const body = formToCommit(values, { spaceId: "s", expectedHead: null });
    expect(body.expected_head_commit_id).toBeNull();
    expect(body.tasks).toEqual([]);
    expect(body.metadata).toEqual({ author: { kind: "human", name: "anonymous" } });
  });

  it("forks from a named Checkpoint when restoring one", () => {
    const values = { ...emptyForm("A"), message: "Restore" };
    expect(
      formToCommit(values, { spaceId: "s", expectedHead: "head", parentId: "older" }),
    ).toMatchObject({
      parent_commit_id: "older",
      expected_head_commit_id: "head",
    });
    expect(formToCommit(values, { spaceId: "s", expectedHead: "head" })).not.toHaveProperty(
      "parent_commit_id",
    );
  });

  it("round-trips a saved Checkpoint's fields (but not its message)", () => {
    const checkpoint = {
      ...formToCommit(formFromDraft(draft, "A"), { spaceId: "s", expectedHead: null }),
      artifacts: [{ name: "a.sql", content: "select 1", media_type: "text/x-sql" }],
    } as unknown as Checkpoint;
    const values = formFromCheckpoint(checkpoint, "B");
    expect(values.message).toBe("");
    expect(values.decisions).toEqual(["Use PostgreSQL"]);
    expect(values.artifacts).toEqual([
      { name: "a.sql", content: "select 1", mediaType: "text/x-sql" },
    ]);
  });

  it("validates the message and artifact names", () => {
    expect(validateForm(emptyForm())).toEqual({ message: "Give the Checkpoint a message." });
    const noName = {
      ...emptyForm(),
      message: "x",
      artifacts: [{ name: " ", content: "text", mediaType: "" }],
    };
    expect(validateForm(noName).artifacts).toBe("Every artifact needs a name.");
    const twice = {
      ...emptyForm(),
      message: "x",
      artifacts: [
        { name: "a", content: "1", mediaType: "" },
        { name: "a ", content: "2", mediaType: "" },
      ],
    };
    expect(validateForm(twice).artifacts).toBe("Artifact names must be unique.");
    expect(validateForm({ ...emptyForm(), message: "ok" })).toEqual({});
  });
});
