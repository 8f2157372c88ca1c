import { describe, expect, it } from "vitest";
import { makeConflict, makeMergePreview } from "@/test/factories";
import type { MergeReview } from "../types";
import { mergedOf } from "./items";
import {
  currentRun,
  freshRun,
  initialMergeForm,
  type MergeFormEvent,
  type MergeFormState,
  mergeFormReducer,
  saveGate,
} from "./merge-form-state";

const summary = makeConflict();
const task = makeConflict({
  field: "tasks",
  key: "Book hotel",
  base: { text: "Book hotel", done: false },
  ours: { text: "Book hotel", done: true },
  theirs: null,
});
const preview = makeMergePreview({ conflicts: [summary, task] });
const start = initialMergeForm("main", "budget", "ana");
const run = (state: MergeFormState, ...events: MergeFormEvent[]) =>
  events.reduce(mergeFormReducer, state);

describe("the merge form's state", () => {
  it("starts with the default message, the remembered name, and the newest preview's run", () => {
    expect(start.message).toBe("Merge budget into main");
    expect(start.author).toBe("ana");
    expect(currentRun(start.run, undefined)).toBeNull();
    expect(currentRun(start.run, preview)).toEqual({ preview, choices: [null, null] });
  });

  it("keeps the person's run when the preview is fetched again after they chose", () => {
    const shown = freshRun(preview);
    const chosen = run(start, { type: "choose", shown, index: 0, choice: { kind: "both" } });
    const refetched = makeMergePreview({ conflicts: [summary], ours_commit_id: "ours2" });
    // Nothing chosen yet: the newest preview shows. Chosen: the run the choice was made on stays.
    expect(currentRun(start.run, refetched)?.preview).toBe(refetched);
    expect(currentRun(chosen.run, refetched)).toEqual({
      preview,
      choices: [{ kind: "both" }, null],
    });
  });

  it("changes one choice at a time, and ignores a choice for a conflict the run does not have", () => {
    const shown = freshRun(preview);
    const one = run(start, { type: "choose", shown, index: 1, choice: { kind: "theirs" } });
    const two = run(one, { type: "choose", shown, index: 0, choice: { kind: "ours" } });
    expect(two.run?.choices).toEqual([{ kind: "ours" }, { kind: "theirs" }]);
    expect(run(two, { type: "choose", shown, index: 2, choice: { kind: "ours" } })).toBe(two);
  });

  it("after a refused save, runs again from the choices as they are when the new run arrives", () => {
    const shown = freshRun(preview);
    const saving = run(
      start,
      { type: "choose", shown, index: 0, choice: { kind: "both" } },
      { type: "save" },
      { type: "rerun" },
    );
    expect(saving.rerunning).toBe(true);
    // The person chooses for the task while the merge runs again: that choice is carried too.
    const meanwhile = run(saving, {
      type: "choose",
      shown,
      index: 1,
      choice: { kind: "ours" },
    });
    const moved = makeMergePreview({ conflicts: [summary, task], ours_commit_id: "ours2" });
    const after = run(meanwhile, { type: "rerun-done", from: shown, preview: moved });
    expect(after.rerunning).toBe(false);
    expect(after.run).toEqual({ preview: moved, choices: [{ kind: "both" }, { kind: "ours" }] });
    expect(after.moved).toMatchObject({ kept: 2, dropped: [], open: [], relation: "diverged" });
    // The next save clears the notice; a save with no notice leaves the state as it is.
    const saved = run(after, { type: "save" });
    expect(saved.moved).toBeNull();
    expect(run(saved, { type: "save" })).toBe(saved);
  });

  it("asks again for a conflict that changed in the new run, and says which choice went", () => {
    const shown = freshRun(preview);
    const chosen = run(start, { type: "choose", shown, index: 0, choice: { kind: "theirs" } });
    const changed = makeConflict({ theirs: "A cheaper trip to Lisbon." });
    const moved = makeMergePreview({ conflicts: [changed, task] });
    const after = run(chosen, { type: "rerun-done", from: shown, preview: moved });
    expect(after.run?.choices).toEqual([null, null]);
    expect(after.moved).toMatchObject({ kept: 0, dropped: [summary], open: [changed, task] });
  });

  it("keeps the run and reports the error when running again fails; a new attempt clears it", () => {
    const failed = run(start, { type: "rerun" }, { type: "rerun-failed", error: "offline" });
    expect(failed).toMatchObject({ rerunning: false, rerunError: "offline", run: null });
    expect(run(failed, { type: "rerun" })).toMatchObject({ rerunning: true, rerunError: null });
  });

  it("keeps the review with the state it reviewed", () => {
    const review = { findings: [] } as unknown as MergeReview;
    const state = mergedOf(preview);
    const after = run(start, { type: "reviewed", review, state });
    expect(after.reviewed).toEqual({ review, state });
  });
});

describe("whether a merge can be saved", () => {
  it("waits for every conflict, then for a message, saying why", () => {
    const none = freshRun(preview);
    expect(saveGate(none, "Merge")).toEqual({
      nothing: false,
      left: 2,
      ready: false,
      whyNot: "Choose for every conflict to save: 2 left.",
    });
    const all = { preview, choices: [{ kind: "ours" as const }, { kind: "theirs" as const }] };
    expect(saveGate(all, "  ")).toMatchObject({
      ready: false,
      whyNot: "Write a message for the merge to save.",
    });
    expect(saveGate(all, "Merge")).toEqual({ nothing: false, left: 0, ready: true, whyNot: null });
  });

  it("has nothing to save when the lines are up to date", () => {
    const upToDate = freshRun(makeMergePreview({ conflicts: [], relation: "up_to_date" }));
    expect(saveGate(upToDate, "Merge")).toEqual({
      nothing: true,
      left: 0,
      ready: false,
      whyNot: null,
    });
  });
});
