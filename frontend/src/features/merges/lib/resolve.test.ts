import { describe, expect, it } from "vitest";
import { makeConflict, makeMergePreview } from "@/test/factories";
import type { Choice, MergeConflict } from "../types";
import {
  allChosen,
  bothSummaries,
  carryChoices,
  choicesFor,
  editStart,
  resolvedValues,
  resolveMerge,
} from "./resolve";

const options = { theirsName: "budget" };
const ours: Choice = { kind: "ours" };
const theirs: Choice = { kind: "theirs" };
const both: Choice = { kind: "both" };
const summary = makeConflict();

describe("resolveMerge", () => {
  it("keeps ours for a conflict not chosen yet, as the preview does", () => {
    const preview = makeMergePreview();
    expect(resolveMerge(preview, [null], options)).toEqual(preview.merged);
  });

  it("takes ours, theirs, both summaries one after the other, or the person's text", () => {
    const preview = makeMergePreview();
    const summaryOf = (choice: Choice) => resolveMerge(preview, [choice], options).summary;
    expect(summaryOf(ours)).toBe("A three-day trip to Lisbon.");
    expect(summaryOf(theirs)).toBe("A cheap trip to Lisbon.");
    expect(summaryOf(both)).toBe("A three-day trip to Lisbon.\n\nA cheap trip to Lisbon.");
    expect(summaryOf({ kind: "edit", value: "  A cheap three-day trip.  " })).toBe(
      "A cheap three-day trip.",
    );
    // Nothing else moves.
    expect(resolveMerge(preview, [theirs], options).decisions).toEqual(preview.merged.decisions);
  });

  it("resolves a task in its place: done on ours, removed on theirs", () => {
    const task = makeConflict({
      field: "tasks",
      key: "Book hotel",
      base: { text: "Book hotel", done: false },
      ours: { text: "Book hotel", done: true },
      theirs: null,
    });
    const preview = makeMergePreview({
      conflicts: [task],
      merged: {
        tasks: [
          { text: "Pack", done: false },
          { text: "Book hotel", done: true },
          { text: "Compare flights", done: false },
        ],
      },
    });
    const tasks = (choice: Choice) => resolveMerge(preview, [choice], options).tasks;
    expect(tasks(ours).map((t) => t.text)).toEqual(["Pack", "Book hotel", "Compare flights"]);
    expect(tasks(theirs).map((t) => t.text)).toEqual(["Pack", "Compare flights"]);
    expect(tasks({ kind: "edit", value: { text: " Book the hotel ", done: false } })).toEqual([
      { text: "Pack", done: false },
      { text: "Book the hotel", done: false },
      { text: "Compare flights", done: false },
    ]);
    // An emptied item is no item, as in the Save form.
    expect(tasks({ kind: "edit", value: { text: " ", done: true } })).toHaveLength(2);
  });

  it("puts back an item ours removed and theirs changed at the end of its list", () => {
    const entity = makeConflict({
      field: "entities",
      key: "Sintra",
      base: { name: "Sintra", kind: "town" },
      ours: null,
      theirs: { name: "Sintra", kind: "town", description: "Day trip" },
    });
    const preview = makeMergePreview({
      conflicts: [entity],
      merged: { entities: [{ name: "Lisbon", kind: "city", description: null }] },
    });
    expect(resolveMerge(preview, [ours], options).entities.map((e) => e.name)).toEqual(["Lisbon"]);
    expect(resolveMerge(preview, [theirs], options).entities).toEqual([
      { name: "Lisbon", kind: "city", description: null },
      { name: "Sintra", kind: "town", description: "Day trip" },
    ]);
  });

  it("keeps both entities of one name, and both artifacts, theirs under a new name", () => {
    const entity = makeConflict({
      field: "entities",
      key: "Lisbon",
      base: null,
      ours: { name: "Lisbon", kind: "city", description: "Capital" },
      theirs: { name: "Lisbon", kind: "hotel", description: null },
    });
    const artifact = makeConflict({
      field: "artifacts",
      key: "plan.md",
      base: { name: "plan.md", content: "# Plan", media_type: "text/markdown" },
      ours: { name: "plan.md", content: "# Plan\nDay 3", media_type: "text/markdown" },
      theirs: { name: "plan.md", content: "# Plan\nCheap", media_type: "text/markdown" },
    });
    const preview = makeMergePreview({
      conflicts: [entity, artifact],
      merged: {
        entities: [
          { name: "Lisbon", kind: "city", description: "Capital" },
          { name: "Sintra", kind: "town", description: null },
        ],
        artifacts: [{ name: "plan.md", content: "# Plan\nDay 3", media_type: "text/markdown" }],
      },
    });
    const state = resolveMerge(preview, [both, both], options);
    expect(state.entities.map((e) => `${e.name}/${e.kind}`)).toEqual([
      "Lisbon/city",
      "Lisbon/hotel",
      "Sintra/town",
    ]);
    expect(state.artifacts.map((a) => [a.name, a.content])).toEqual([
      ["plan.md", "# Plan\nDay 3"],
      ["plan.md (from budget)", "# Plan\nCheap"],
    ]);
  });

  it("finds the right one of two items with the same text (the second occurrence)", () => {
    const second = makeConflict({
      field: "tasks",
      key: "Call",
      occurrence: 1,
      base: null,
      // Wire objects may leave defaults out and order keys any way: still the same task.
      ours: { done: true, text: "Call" },
      theirs: { text: "Call" },
    });
    const preview = makeMergePreview({
      conflicts: [second],
      merged: {
        tasks: [
          { text: "Call", done: false },
          { text: "Pack", done: false },
          { text: "Call", done: true },
        ],
      },
    });
    expect(resolveMerge(preview, [theirs], options).tasks).toEqual([
      { text: "Call", done: false },
      { text: "Pack", done: false },
      { text: "Call", done: false },
    ]);
  });
});

describe("the choices a conflict offers", () => {
  it("offers both for the summary and two different entities or artifacts, never for a task", () => {
    expect(choicesFor(summary)).toEqual(["ours", "theirs", "both", "edit"]);
    const task = makeConflict({
      field: "tasks",
      key: "Pack",
      base: null,
      ours: { text: "Pack", done: true },
      theirs: { text: "Pack", done: false },
    });
    expect(choicesFor(task)).toEqual(["ours", "theirs", "edit"]);
    const entity = makeConflict({
      field: "entities",
      key: "Lisbon",
      ours: { name: "Lisbon", kind: "city" },
      theirs: { name: "Lisbon", kind: "port" },
    });
    expect(choicesFor(entity)).toContain("both");
    // Removed on one side: "both" would be the other side's choice again.
    expect(choicesFor({ ...entity, theirs: null })).not.toContain("both");
  });

  it("starts an edit from what the choice so far makes, else ours, else theirs", () => {
    expect(editStart(summary, null, options)).toBe("A three-day trip to Lisbon.");
    expect(editStart(summary, both, options)).toBe(
      bothSummaries("A three-day trip to Lisbon.", "A cheap trip to Lisbon."),
    );
    expect(editStart(summary, { kind: "edit", value: "Mine" }, options)).toBe("Mine");
    const removedByOurs = makeConflict({
      field: "tasks",
      key: "Pack",
      base: { text: "Pack" },
      ours: null,
      theirs: { text: "Pack", done: true },
    });
    expect(editStart(removedByOurs, null, options)).toEqual({ text: "Pack", done: true });
    // "ours" removed it: the edit starts from theirs' item rather than from nothing.
    expect(editStart(removedByOurs, ours, options)).toEqual({ text: "Pack", done: true });
    expect(resolvedValues(removedByOurs, ours, options)).toEqual([]);
  });

  it("is complete only when every conflict has a choice", () => {
    const conflicts = [summary, summary];
    expect(allChosen(conflicts, [ours, null])).toBe(false);
    expect(allChosen(conflicts, [ours, theirs])).toBe(true);
    expect(allChosen([], [])).toBe(true);
  });
});

describe("carryChoices (the merge run again after the line moved)", () => {
  const task: MergeConflict = makeConflict({
    field: "tasks",
    key: "Book hotel",
    base: { text: "Book hotel", done: false },
    ours: { text: "Book hotel", done: true },
    theirs: null,
  });

  it("keeps a choice whose conflict came back the same, in the new run's order", () => {
    const carried = carryChoices([summary, task], [both, theirs], [task, summary]);
    expect(carried.choices).toEqual([theirs, both]);
    expect(carried.kept).toBe(2);
    expect(carried.dropped).toEqual([]);
    expect(carried.open).toEqual([]);
  });

  it("drops a choice whose conflict changed (another ours) or went, and asks for new ones", () => {
    const changed = { ...summary, ours: "A four-day trip to Lisbon." };
    const added = makeConflict({
      field: "entities",
      key: "Sintra",
      base: null,
      ours: { name: "Sintra" },
      theirs: { name: "Sintra", kind: "town" },
    });
    const carried = carryChoices([summary, task], [both, theirs], [changed, added]);
    expect(carried.choices).toEqual([null, null]);
    expect(carried.kept).toBe(0);
    expect(carried.dropped).toEqual([summary, task]);
    expect(carried.open).toEqual([changed, added]);
  });

  it("matches by value, not by the wire's spelling of it", () => {
    const spelled = {
      ...task,
      ours: { done: true, text: "Book hotel" },
      base: { text: "Book hotel" },
    };
    expect(carryChoices([task], [theirs], [spelled]).choices).toEqual([theirs]);
    // The same key at another occurrence is another item.
    expect(carryChoices([task], [theirs], [{ ...task, occurrence: 1 }]).choices).toEqual([null]);
  });

  it("does not count a conflict that had no choice as dropped", () => {
    const carried = carryChoices([summary, task], [null, ours], []);
    expect(carried.dropped).toEqual([task]);
    expect(carried.open).toEqual([]);
  });
});
