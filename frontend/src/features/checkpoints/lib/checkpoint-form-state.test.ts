import { describe, expect, it } from "vitest";
import type { CheckpointDraft } from "@/api/v5";
import { makeCheckpoint } from "@/test/factories";
import {
  type CheckpointFormEvent,
  type CheckpointFormState,
  checkpointFormReducer,
  initialCheckpointForm,
  saveErrors,
} from "./checkpoint-form-state";

const parent = makeCheckpoint("aaa1111", {
  summary: "Lisbon in May",
  decisions: ["Fly on Friday"],
  tasks: [{ text: "Book hotel", done: false }],
});
const head = makeCheckpoint("bbb2222", {
  parent_commit_id: parent.id,
  summary: "Lisbon in May",
  decisions: ["Fly on Friday", "Car"],
  tasks: [{ text: "Book hotel", done: false }],
});
const draft: CheckpointDraft = {
  message: "Train plan",
  summary: "",
  decisions: ["Fly on Friday", "Take the train"],
  assumptions: [],
  tasks: [{ text: "Book hotel", done: true }],
  open_questions: [],
  entities: [],
  source: { session_id: "s", from_seq: 5, to_seq: 8 },
  drafted_by: { provider: "offline", model: "offline-1" },
};
const start = initialCheckpointForm(parent, "ana", "aaa1111-2");
const run = (state: CheckpointFormState, ...events: CheckpointFormEvent[]) =>
  events.reduce(checkpointFormReducer, state);
const proposal = (state: CheckpointFormState, text: string) => {
  const found = state.proposals.find((p) => "text" in p && p.text === text);
  if (!found) throw new Error(`no proposal “${text}”`);
  return found;
};

describe("the Save checkpoint form's state", () => {
  it("starts from the parent's state, with the remembered name, on a new line", () => {
    expect(start.values).toMatchObject({
      message: "",
      summary: "Lisbon in May",
      decisions: ["Fly on Friday"],
      authorName: "ana",
    });
    expect(start).toMatchObject({ base: parent, where: "new-line", lineName: "aaa1111-2" });
    expect(start.proposals).toEqual([]);
  });

  it("offers a draft as proposals, changing nothing until one is accepted", () => {
    const drafted = run(start, { type: "drafted", draft });
    expect(drafted.values).toBe(start.values);
    expect(drafted.proposals.map((p) => p.kind)).toEqual(["message", "add", "complete-task"]);
    expect(drafted.provenance).toEqual({ source: draft.source, draftedBy: draft.drafted_by });
    expect(drafted.acceptedDraft).toBe(false);
    const accepted = run(drafted, {
      type: "accept",
      proposal: proposal(drafted, "Take the train"),
    });
    expect(accepted.values.decisions).toEqual(["Fly on Friday", "Take the train"]);
    expect(accepted.proposals).toHaveLength(2);
    expect(accepted.acceptedDraft).toBe(true);
    const rejected = run(accepted, { type: "reject", proposal: proposal(accepted, "Train plan") });
    expect(rejected.proposals.map((p) => p.kind)).toEqual(["complete-task"]);
    expect(rejected.values.message).toBe("");
  });

  it("compares a draft that arrives with the values as they are then, not as they were asked", () => {
    const first = run(start, { type: "drafted", draft });
    // The person accepts from the first draft while the second is on its way.
    const meanwhile = run(first, { type: "accept", proposal: proposal(first, "Take the train") });
    const second = run(meanwhile, { type: "drafted", draft });
    expect(second.proposals.map((p) => p.kind)).toEqual(["message", "complete-task"]);
    // A new draft's proposals are its own: nothing accepted from it yet.
    expect(second.acceptedDraft).toBe(false);
  });

  it("ignores a proposal of an earlier draft, whose ids the next draft's list reuses", () => {
    const first = run(start, { type: "drafted", draft });
    const stale = proposal(first, "Take the train");
    const second = run(first, {
      type: "drafted",
      draft: { ...draft, message: "", decisions: ["Stay in Baixa"] },
    });
    expect(second.proposals.some((p) => p.id === stale.id)).toBe(true);
    expect(run(second, { type: "accept", proposal: stale })).toBe(second);
  });

  it("moves the edits onto HEAD and back, keeping them and dropping nothing of either state", () => {
    const edited = run(start, {
      type: "edit",
      values: { ...start.values, message: "Mine", decisions: ["Fly on Friday", "Hostel"] },
    });
    const onHead = run(edited, { type: "where", where: "on-head", onto: head });
    expect(onHead).toMatchObject({ where: "on-head", base: head });
    expect(onHead.values.message).toBe("Mine");
    expect(onHead.values.decisions).toEqual(["Fly on Friday", "Car", "Hostel"]);
    // Edits made after the move (while a fetched HEAD arrived, say) go along on the next move.
    const more = run(onHead, {
      type: "edit",
      values: { ...onHead.values, decisions: [...onHead.values.decisions, "Museum"] },
    });
    const back = run(more, { type: "where", where: "new-line", onto: parent });
    expect(back).toMatchObject({ where: "new-line", base: parent });
    expect(back.values.decisions).toEqual(["Fly on Friday", "Hostel", "Museum"]);
  });

  it("keeps a refused save's edits, and moves them onto the new HEAD when asked", () => {
    const edited = run(start, {
      type: "edit",
      values: { ...start.values, message: "Mine", summary: "Lisbon in June" },
    });
    const refused = run(
      edited,
      { type: "save", errors: {} },
      { type: "line-created", name: "idea" },
      { type: "conflict", detail: "HEAD moved.", head },
    );
    expect(refused.conflict).toEqual({ detail: "HEAD moved.", head });
    expect(refused.createdLine).toBe("idea");
    expect(refused.values).toBe(edited.values);
    const moved = run(refused, { type: "rebase", onto: head });
    expect(moved.base).toBe(head);
    expect(moved.values).toMatchObject({
      message: "Mine",
      summary: "Lisbon in June",
      decisions: ["Fly on Friday", "Car"],
    });
    // Saving again forgets the refusal; the created line is remembered (not created twice).
    const again = run(moved, { type: "save", errors: {} });
    expect(again.conflict).toBeNull();
    expect(again.createdLine).toBe("idea");
  });

  it("keeps the errors a save found, and clears them with a save that finds none", () => {
    const found = saveErrors({ ...start, lineName: " " }, true);
    expect(found).toEqual({
      message: "Give the Checkpoint a message.",
      lineName: "Name the new line.",
    });
    const refused = run(
      start,
      { type: "conflict", detail: "HEAD moved.", head: null },
      { type: "save", errors: found },
    );
    expect(refused.errors).toBe(found);
    // An invalid save sends nothing, so the last refusal still stands.
    expect(refused.conflict).not.toBeNull();
    const named = run(refused, { type: "line-name", name: "idea" });
    expect(saveErrors(named, false)).toEqual({ message: "Give the Checkpoint a message." });
    const fixed = run(named, {
      type: "edit",
      values: { ...named.values, message: "Mine" },
    });
    expect(saveErrors(fixed, true)).toEqual({});
    expect(run(fixed, { type: "save", errors: {} })).toMatchObject({
      errors: {},
      conflict: null,
    });
  });
});
