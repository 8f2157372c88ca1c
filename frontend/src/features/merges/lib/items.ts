import type { Artifact, Entity, Task } from "@/api/models";
import { itemNames as checkpointItemNames } from "@/lib/checkpoint-fields";
import { isRecord } from "@/lib/is-record";
import type {
  ListField,
  MergeConflict,
  MergeField,
  MergePreview,
  MergeState,
  SideValue,
} from "../types";

/** The fields a merge covers, in the order the server lists its conflicts (docs/merge.md). */
export const MERGE_FIELDS = [
  "summary",
  "decisions",
  "assumptions",
  "tasks",
  "open_questions",
  "entities",
  "artifacts",
] as const satisfies readonly MergeField[];

export const LIST_FIELDS = MERGE_FIELDS.filter((f): f is ListField => f !== "summary");

export const fieldTitles: Record<MergeField, string> = {
  summary: "Summary",
  decisions: "Decisions",
  assumptions: "Assumptions",
  tasks: "Tasks",
  open_questions: "Open questions",
  entities: "Entities",
  artifacts: "Artifacts",
};

/** One item of a field, in a sentence: "Task", "Open question". */
export const itemNames: Record<MergeField, string> = checkpointItemNames;

export function isMergeField(field: string): field is MergeField {
  return (MERGE_FIELDS as readonly string[]).includes(field);
}

export const isObjectField = (field: MergeField): field is "tasks" | "entities" | "artifacts" =>
  field === "tasks" || field === "entities" || field === "artifacts";

/** The whole merged state, every field present (the wire leaves the defaults out). */
export function fullState(state: Partial<MergeState> | null | undefined): MergeState {
  return {
    summary: state?.summary ?? "",
    decisions: [...(state?.decisions ?? [])],
    assumptions: [...(state?.assumptions ?? [])],
    tasks: [...(state?.tasks ?? [])],
    open_questions: [...(state?.open_questions ?? [])],
    entities: [...(state?.entities ?? [])],
    artifacts: [...(state?.artifacts ?? [])],
  };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const orNull = (value: unknown) => (typeof value === "string" ? value : null);

/**
 * A side's value as the app holds it: the wire's is `string | object | null`, with defaults
 * possibly left out (a task without `done`), so two equal items always compare equal.
 */
export function sideValue(field: MergeField, value: unknown): SideValue {
  if (value === null || value === undefined) return null;
  if (!isObjectField(field)) return text(value);
  if (!isRecord(value)) return null;
  if (field === "tasks") return { text: text(value.text), done: value.done === true } as Task;
  if (field === "entities")
    return {
      name: text(value.name),
      kind: orNull(value.kind),
      description: orNull(value.description),
    } as Entity;
  return {
    name: text(value.name),
    content: text(value.content),
    media_type: orNull(value.media_type) ?? "text/plain",
  } as Artifact;
}

/** The key an item is merged by: its text (tasks: `text`; entities, artifacts: `name`). */
export function keyOf(field: MergeField, item: unknown): string {
  if (typeof item === "string") return item;
  if (!isRecord(item)) return "";
  return text(field === "tasks" ? item.text : item.name);
}

/** A JSON text that is the same for equal values whatever their keys' order. */
export function stableText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isRecord(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

export function sameItem(field: MergeField, a: unknown, b: unknown): boolean {
  return stableText(sideValue(field, a)) === stableText(sideValue(field, b));
}

/** A conflict whose field the app knows (the server only ever names the merged fields). */
export function conflictField(conflict: MergeConflict): MergeField {
  return isMergeField(conflict.field) ? conflict.field : "summary";
}

/**
 * A conflict's identity across two runs of a merge: the same field, key and occurrence, and the
 * same base, ours and theirs. A choice made for it still means the same thing when this is equal.
 */
export function conflictIdentity(conflict: MergeConflict): string {
  const field = conflictField(conflict);
  return stableText([
    conflict.field,
    conflict.key,
    conflict.occurrence,
    sideValue(field, conflict.base),
    sideValue(field, conflict.ours),
    sideValue(field, conflict.theirs),
  ]);
}

/** The merged state of a preview, every field present. */
export const mergedOf = (preview: MergePreview) => fullState(preview.merged);

/** "Task “Book hotel”", "the second Decision “Rent a car”", "Summary". */
export function conflictTitle(conflict: MergeConflict): string {
  const field = conflictField(conflict);
  if (field === "summary" || conflict.key === null) return itemNames[field];
  const nth = conflict.occurrence > 0 ? ` (occurrence ${conflict.occurrence + 1})` : "";
  return `${itemNames[field]} “${conflict.key}”${nth}`;
}
