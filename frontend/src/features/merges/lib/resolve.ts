/**
 * A merge's resolution, pure: what the person's choices make of a preview (the state to save),
 * and which choices still hold when the merge is run again against a line that moved.
 */
import type { Artifact, Entity, Task } from "@/api/models";
import type {
  Choice,
  ChoiceKind,
  ListField,
  MergeConflict,
  MergeField,
  MergePreview,
  MergeState,
  SideValue,
} from "../types";
import {
  conflictField,
  conflictIdentity,
  keyOf,
  LIST_FIELDS,
  mergedOf,
  sameItem,
  sideValue,
} from "./items";

/** One choice per conflict of the preview, in its order; null until the person chooses. */
export type Choices = readonly (Choice | null)[];

export interface ResolveOptions {
  /** How the line merged in is named, for an artifact kept from both sides under a new name. */
  theirsName: string;
}

const sides = (conflict: MergeConflict) => {
  const field = conflictField(conflict);
  return {
    field,
    base: sideValue(field, conflict.base),
    ours: sideValue(field, conflict.ours),
    theirs: sideValue(field, conflict.theirs),
  };
};

/**
 * The choices a conflict offers. "Both" only where keeping both means something: the summary
 * (both texts, one after the other), and two different entities or artifacts of one name (an
 * artifact of theirs is kept under a new name). A task is one text with one `done`, and when one
 * side removed the item "both" is that side's choice again, so neither gets it.
 */
export function choicesFor(conflict: MergeConflict): ChoiceKind[] {
  const { field, ours, theirs } = sides(conflict);
  const both =
    field === "summary" ||
    (ours !== null && theirs !== null && (field === "entities" || field === "artifacts"));
  return both ? ["ours", "theirs", "both", "edit"] : ["ours", "theirs", "edit"];
}

/** The summary when both are kept: ours, then theirs, a blank line between (empty ones left out). */
export function bothSummaries(ours: string, theirs: string): string {
  return [ours.trim(), theirs.trim()].filter((t) => t !== "").join("\n\n");
}

/** Theirs' artifact kept beside ours: same content, named after the line it came from. */
export function theirsArtifactName(name: string, theirsName: string): string {
  return `${name} (from ${theirsName})`;
}

/**
 * What one conflict's choice puts in the merged state: the summary's text, or the items (none,
 * one or two) that take the conflicting item's place in its list.
 */
export function resolvedValues(
  conflict: MergeConflict,
  choice: Choice,
  options: ResolveOptions,
): Exclude<SideValue, null>[] {
  const { field, ours, theirs } = sides(conflict);
  const present = (values: SideValue[]) =>
    values.filter((v): v is Exclude<SideValue, null> => v !== null);
  switch (choice.kind) {
    case "ours":
      return present([field === "summary" ? (ours ?? "") : ours]);
    case "theirs":
      return present([field === "summary" ? (theirs ?? "") : theirs]);
    case "both": {
      if (field === "summary") return [bothSummaries(String(ours ?? ""), String(theirs ?? ""))];
      if (ours === null || theirs === null || sameItem(field, ours, theirs))
        return present([ours ?? theirs]);
      if (field === "artifacts") {
        const art = theirs as Artifact;
        return [ours, { ...art, name: theirsArtifactName(art.name, options.theirsName) }];
      }
      return [ours, theirs];
    }
    case "edit":
      return present([edited(field, choice.value)]);
  }
}

/** A person's own value, tidied as the Save form tidies it: an empty item is no item. */
function edited(field: MergeField, value: string | Task | Entity | Artifact): SideValue {
  if (field === "summary") return typeof value === "string" ? value.trim() : "";
  if (typeof value === "string") {
    const text = value.trim();
    return text === "" ? null : text;
  }
  const item = sideValue(field, value);
  if (item === null || keyOf(field, item).trim() === "") return null;
  if (field === "tasks") {
    const task = item as Task;
    return { ...task, text: task.text.trim() };
  }
  if (field === "entities") {
    const entity = item as Entity;
    return {
      name: entity.name.trim(),
      kind: entity.kind?.trim() || null,
      description: entity.description?.trim() || null,
    };
  }
  const artifact = item as Artifact;
  return { ...artifact, name: artifact.name.trim() };
}

/**
 * Where an edit starts: what the current choice makes of the conflict (ours until one is made),
 * so "Both" then "Edit" edits the two summaries joined. An item no side has starts blank.
 */
export function editStart(
  conflict: MergeConflict,
  current: Choice | null,
  options: ResolveOptions,
): string | Task | Entity | Artifact {
  const { field, ours, theirs } = sides(conflict);
  if (current?.kind === "edit") return current.value;
  const start = current ? resolvedValues(conflict, current, options)[0] : undefined;
  const value = start ?? ours ?? theirs;
  if (value !== null && value !== undefined) return value;
  if (field === "tasks") return { text: conflict.key ?? "", done: false };
  if (field === "entities") return { name: conflict.key ?? "", kind: null, description: null };
  if (field === "artifacts")
    return { name: conflict.key ?? "", content: "", media_type: "text/plain" };
  return field === "summary" ? "" : (conflict.key ?? "");
}

export const allChosen = (conflicts: readonly MergeConflict[], choices: Choices) =>
  conflicts.every((_, i) => choices[i] != null);

/**
 * Where each conflict's item sits in the merged list, which holds ours' value for it (docs/merge.md:
 * "merged keeps ours for it until the person chooses"): the item of that key equal to ours, the
 * `occurrence`-th such one first. -1 when ours does not have the item (it is not in the list).
 */
function locate(list: readonly unknown[], field: ListField, conflicts: readonly MergeConflict[]) {
  const taken = new Set<number>();
  return conflicts.map((conflict) => {
    if (conflict.ours === null || conflict.key === null) return -1;
    const candidates: number[] = [];
    list.forEach((item, index) => {
      if (keyOf(field, item) === conflict.key) candidates.push(index);
    });
    const equal = candidates.filter(
      (i) => !taken.has(i) && sameItem(field, list[i], conflict.ours),
    );
    const exact = candidates[conflict.occurrence];
    const index = exact !== undefined && equal.includes(exact) ? exact : (equal[0] ?? -1);
    if (index >= 0) taken.add(index);
    return index;
  });
}

/**
 * The state to save: the preview's merged state with every chosen conflict resolved. An item
 * replaces ours' in place (two items for "both": ours, then theirs); an item ours did not have
 * (ours removed it, theirs changed it) goes at the end of its list, as theirs' additions do. A
 * conflict not chosen yet keeps ours, as the preview does.
 */
export function resolveMerge(
  preview: MergePreview,
  choices: Choices,
  options: ResolveOptions,
): MergeState {
  const merged = mergedOf(preview);
  const state: MergeState = { ...merged };
  preview.conflicts.forEach((conflict, i) => {
    const choice = choices[i];
    if (choice && conflictField(conflict) === "summary")
      state.summary = String(resolvedValues(conflict, choice, options)[0] ?? "");
  });
  for (const field of LIST_FIELDS) {
    const mine = preview.conflicts
      .map((conflict, i) => ({ conflict, choice: choices[i] ?? null }))
      .filter(({ conflict }) => conflictField(conflict) === field);
    if (mine.length === 0) continue;
    const list: readonly unknown[] = merged[field];
    const at = locate(
      list,
      field,
      mine.map((m) => m.conflict),
    );
    const replaced = new Map<number, unknown[]>();
    const appended: unknown[] = [];
    mine.forEach(({ conflict, choice }, j) => {
      if (!choice) return;
      const values = resolvedValues(conflict, choice, options);
      const index = at[j] ?? -1;
      if (index >= 0) replaced.set(index, values);
      else appended.push(...values);
    });
    const next = list.flatMap((item, index) => replaced.get(index) ?? [item]);
    (state as Record<ListField, unknown[]>)[field] = [...next, ...appended];
  }
  return state;
}

export interface CarriedChoices {
  /** One per conflict of the new run, in its order. */
  choices: (Choice | null)[];
  /** How many choices still apply: the same conflict, with the same three values, came back. */
  kept: number;
  /** Conflicts that had a choice and are not in the new run (gone, or changed): their choices went. */
  dropped: MergeConflict[];
  /** Conflicts of the new run that have no choice (new, or changed). */
  open: MergeConflict[];
}

/**
 * The choices that survive a re-run of the merge (after the line merged into moved): a choice
 * stays with a conflict of the same field, key and occurrence whose base, ours and theirs are
 * all the same as before; every other conflict asks again.
 */
export function carryChoices(
  before: readonly MergeConflict[],
  choices: Choices,
  after: readonly MergeConflict[],
): CarriedChoices {
  const chosen = new Map<string, Choice>();
  before.forEach((conflict, i) => {
    const choice = choices[i];
    if (choice) chosen.set(conflictIdentity(conflict), choice);
  });
  const afterIds = new Set(after.map(conflictIdentity));
  const carried = after.map((conflict) => chosen.get(conflictIdentity(conflict)) ?? null);
  return {
    choices: carried,
    kept: carried.filter((c) => c !== null).length,
    dropped: before.filter((c, i) => choices[i] && !afterIds.has(conflictIdentity(c))),
    open: after.filter((_, i) => carried[i] === null),
  };
}
