import type { Artifact, Entity, Task } from "@/api/models";
import { type DiffLine, type DiffSection, entityText, taskText } from "@/features/checkpoints";
import { formatBytes } from "@/lib/format";
import type { ListField, MergeState } from "../types";
import { fieldTitles, keyOf, LIST_FIELDS, sameItem } from "./items";

const show: Record<ListField, (item: never) => string> = {
  decisions: (t: string) => t,
  assumptions: (t: string) => t,
  open_questions: (t: string) => t,
  tasks: (t: Task) => taskText(t),
  entities: (e: Entity) => entityText(e),
  artifacts: (a: Artifact) => `${a.name} (${formatBytes(a.content.length)})`,
};

/** The items of a list by (key, occurrence): the same text twice is two items, as in the merge. */
function indexed(field: ListField, items: readonly unknown[]): Map<string, unknown> {
  const seen = new Map<string, number>();
  const out = new Map<string, unknown>();
  for (const item of items) {
    const key = keyOf(field, item);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    out.set(JSON.stringify([key, n]), item);
  }
  return out;
}

function changed(field: ListField, before: unknown, after: unknown): string {
  const text = (item: unknown) => (show[field] as (i: unknown) => string)(item);
  if (field === "tasks") {
    const [a, b] = [before as Task, after as Task];
    return `${b.text}: ${a.done ? "done" : "open"} → ${b.done ? "done" : "open"}`;
  }
  if (field === "artifacts") {
    const [a, b] = [before as Artifact, after as Artifact];
    const size = `${formatBytes(a.content.length)} → ${formatBytes(b.content.length)}`;
    return `${b.name}: ${size}${a.media_type !== b.media_type ? ", media type changed" : ""}`;
  }
  return `${text(before)} → ${text(after)}`;
}

/**
 * What saving `after` on a line whose HEAD holds `before` changes, field by field, as the
 * Compare panel shows a diff: what comes in (+), what goes (−), what changes (~).
 */
export function diffStates(before: MergeState, after: MergeState): DiffSection[] {
  const sections: DiffSection[] = [];
  if (before.summary.trim() !== after.summary.trim()) {
    const lines: DiffLine[] = [];
    if (before.summary) lines.push({ sign: "-", text: before.summary });
    if (after.summary) lines.push({ sign: "+", text: after.summary });
    sections.push({ field: "summary", title: fieldTitles.summary, lines });
  }
  for (const field of LIST_FIELDS) {
    const text = (item: unknown) => (show[field] as (i: unknown) => string)(item);
    const [a, b] = [indexed(field, before[field]), indexed(field, after[field])];
    const lines: DiffLine[] = [];
    for (const [k, item] of a) if (!b.has(k)) lines.push({ sign: "-", text: text(item) });
    for (const [k, item] of b) if (!a.has(k)) lines.push({ sign: "+", text: text(item) });
    for (const [k, item] of b) {
      const old = a.get(k);
      if (old !== undefined && !sameItem(field, old, item))
        lines.push({ sign: "~", text: changed(field, old, item) });
    }
    if (lines.length > 0) sections.push({ field, title: fieldTitles[field], lines });
  }
  return sections;
}
