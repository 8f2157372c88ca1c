import { describe, expect, it } from "vitest";
import type { Checkpoint } from "@/api/models";
import type { CheckpointDraft } from "@/api/v5";
import { rebaseForm } from "./carry";
import { emptyForm, formFromCheckpoint, formToCommit } from "./form";
import { diffAgainstParent } from "./form-diff";
import { acceptProposal, describeProposal, proposalsFromDraft } from "./proposals";

const parent = {
  id: "p",
  summary: "Four days in Lisbon.",
  decisions: ["Fly on Friday"],
  assumptions: ["Budget 2000 EUR"],
  tasks: [{ text: "Book hotel", done: false }],
  open_questions: ["Rent a car?"],
  entities: [{ name: "Lisbon", kind: "city", description: null }],
  artifacts: [{ name: "plan.md", content: "# Plan", media_type: "text/markdown" }],
  metadata: { author: { kind: "agent", name: "planner" } },
} as unknown as Checkpoint;

const draft: CheckpointDraft = {
  message: "Train to Sintra",
  summary: "We take the train.",
  decisions: ["Fly on Friday", "Take the train to Sintra"],
  assumptions: [],
  tasks: [{ text: "Book hotel", done: true }, { text: "Buy train tickets" }],
  open_questions: [],
  entities: [{ name: "Sintra", kind: "town" }, { name: "Lisbon" }],
  source: { session_id: "s", from_seq: 13, to_seq: 20 },
  drafted_by: { provider: "offline", model: "offline-1" },
};

describe("Save starts from the parent", () => {
  it("prefills every field from the parent, so saving unchanged drops nothing", () => {
    const values = { ...formFromCheckpoint(parent, "Asha"), message: "Next" };
    const body = formToCommit(values, { spaceId: "s", expectedHead: "p", parentId: "p" });
    expect(body).toMatchObject({
      summary: parent.summary,
      decisions: parent.decisions,
      assumptions: parent.assumptions,
      tasks: parent.tasks,
      open_questions: parent.open_questions,
      artifacts: parent.artifacts,
      parent_commit_id: "p",
      expected_head_commit_id: "p",
    });
    expect(diffAgainstParent(formFromCheckpoint(parent, ""), values)).toEqual([]);
  });

  it("sends the line to save on", () => {
    const values = { ...emptyForm(), message: "x" };
    expect(
      formToCommit(values, { spaceId: "s", expectedHead: null, branch: "idea" }),
    ).toMatchObject({ branch: "idea" });
  });
});

describe("Draft proposals", () => {
  const values = formFromCheckpoint(parent, "Asha");

  it("proposes only what the form does not hold yet, never overwriting it", () => {
    const proposals = proposalsFromDraft(draft, values);
    expect(proposals.map(describeProposal)).toEqual([
      { what: "Message", text: "Train to Sintra" },
      { what: "Replace summary", text: "We take the train." },
      { what: "Add decision", text: "Take the train to Sintra" },
      { what: "Mark task done", text: "Book hotel" },
      { what: "Add task", text: "[ ] Buy train tickets" },
      { what: "Add entity", text: "Sintra (town)" },
    ]);
    // Proposing changed nothing: the form is still the parent's state.
    expect(values.decisions).toEqual(["Fly on Friday"]);
  });

  it("applies an accepted proposal and leaves the rest of the state alone", () => {
    const proposals = proposalsFromDraft(draft, values);
    const decision = proposals.find((p) => p.kind === "add");
    const done = proposals.find((p) => p.kind === "complete-task");
    if (!decision || !done) throw new Error("missing proposals");
    const next = acceptProposal(acceptProposal(values, decision), done);
    expect(next.decisions).toEqual(["Fly on Friday", "Take the train to Sintra"]);
    expect(next.tasks).toEqual([{ text: "Book hotel", done: true }]);
    expect(next.summary).toBe(parent.summary);
    expect(next.artifacts).toEqual(values.artifacts);
    // Accepting twice does not double an item.
    expect(acceptProposal(next, decision).decisions).toHaveLength(2);
  });

  it("updates an entity in place when the draft says more about it", () => {
    const bare = { ...values, entities: [{ name: "Sintra", kind: "", description: "" }] };
    const [update] = proposalsFromDraft(
      { ...draft, entities: [{ name: "Sintra", kind: "town" }] },
      bare,
    ).filter((p) => p.kind === "entity");
    expect(update && describeProposal(update).what).toBe("Update entity");
    if (!update) return;
    expect(acceptProposal(bare, update).entities).toEqual([
      { name: "Sintra", kind: "town", description: "" },
    ]);
  });
});

describe("The diff against the parent", () => {
  it("lists what is added, removed and changed, field by field", () => {
    const before = formFromCheckpoint(parent, "");
    const after = {
      ...before,
      summary: "Four days, train to Sintra.",
      decisions: [...before.decisions, "Take the train"],
      assumptions: [],
      tasks: [{ text: "Book hotel", done: true }],
      entities: [{ name: "Lisbon", kind: "capital", description: "" }],
    };
    const sections = diffAgainstParent(before, after);
    expect(sections.map((s) => [s.field, s.lines.map((l) => `${l.sign} ${l.text}`)])).toEqual([
      ["summary", ["- Four days in Lisbon.", "+ Four days, train to Sintra."]],
      ["decisions", ["+ Take the train"]],
      ["assumptions", ["- Budget 2000 EUR"]],
      ["tasks", ["~ [ ] Book hotel → [x] Book hotel"]],
      ["entities", ["~ Lisbon (city) → Lisbon (capital)"]],
    ]);
  });

  it("ignores blank items, as saving drops them", () => {
    const before = formFromCheckpoint(parent, "");
    expect(
      diffAgainstParent(before, { ...before, decisions: [...before.decisions, "  "] }),
    ).toEqual([]);
  });
});

describe("Moving the edits onto another parent (save on top of the line's HEAD)", () => {
  it("keeps the new parent's items and carries the person's additions and removals", () => {
    const from = formFromCheckpoint(parent, "");
    const edited = {
      ...from,
      message: "Mine",
      decisions: [...from.decisions, "Take the train"],
      openQuestions: [],
    };
    const head = {
      ...from,
      summary: "Agent's summary",
      decisions: ["Fly on Friday", "Stay in Alfama"],
      openQuestions: ["Rent a car?", "Which museum?"],
    };
    const moved = rebaseForm(edited, from, head);
    expect(moved.message).toBe("Mine");
    expect(moved.summary).toBe("Agent's summary");
    expect(moved.decisions).toEqual(["Fly on Friday", "Stay in Alfama", "Take the train"]);
    // The person removed "Rent a car?"; the agent's new question stays.
    expect(moved.openQuestions).toEqual(["Which museum?"]);
    expect(moved.artifacts).toEqual(from.artifacts);
  });

  it("moving onto an empty state keeps exactly what the person has", () => {
    const edited = { ...emptyForm("A"), message: "First", decisions: ["Use PostgreSQL"] };
    expect(rebaseForm(edited, emptyForm(), emptyForm())).toEqual(edited);
  });
});
