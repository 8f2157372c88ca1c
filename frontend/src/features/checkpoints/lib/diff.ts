import type { CheckpointDiff } from "@/api/v5";
import { formatBytes } from "@/lib/format";
import { entityText, taskText } from "./item-text";

/** One line of a rendered diff: added, removed or changed. */
export interface DiffLine {
  sign: "+" | "-" | "~";
  text: string;
}

export interface DiffSection {
  field: string;
  title: string;
  lines: DiffLine[];
}

/** The sections of a Checkpoint diff that have changes, in the order of the Checkpoint's fields. */
export function diffSections(diff: CheckpointDiff): DiffSection[] {
  const sections: DiffSection[] = [];
  const push = (field: string, title: string, lines: DiffLine[]) => {
    if (lines.length > 0) sections.push({ field, title, lines });
  };
  const text = (change: CheckpointDiff["message"]): DiffLine[] =>
    change.changed
      ? [
          ...(change.before ? [{ sign: "-" as const, text: change.before }] : []),
          ...(change.after ? [{ sign: "+" as const, text: change.after }] : []),
        ]
      : [];
  const list = (change: { added: string[]; removed: string[] }): DiffLine[] => [
    ...change.removed.map((t) => ({ sign: "-" as const, text: t })),
    ...change.added.map((t) => ({ sign: "+" as const, text: t })),
  ];

  push("message", "Message", text(diff.message));
  push("summary", "Summary", text(diff.summary));
  push("decisions", "Decisions", list(diff.decisions));
  push("assumptions", "Assumptions", list(diff.assumptions));
  push("tasks", "Tasks", [
    ...diff.tasks.removed.map((t) => ({ sign: "-" as const, text: taskText(t) })),
    ...diff.tasks.added.map((t) => ({ sign: "+" as const, text: taskText(t) })),
    ...diff.tasks.changed.map((t) => ({
      sign: "~" as const,
      text: `${t.text}: ${t.before_done ? "done" : "open"} → ${t.after_done ? "done" : "open"}`,
    })),
  ]);
  push("open_questions", "Open questions", list(diff.open_questions));
  push("entities", "Entities", [
    ...diff.entities.removed.map((e) => ({ sign: "-" as const, text: entityText(e) })),
    ...diff.entities.added.map((e) => ({ sign: "+" as const, text: entityText(e) })),
    ...diff.entities.changed.map((e) => ({
      sign: "~" as const,
      text: `${entityText(e.before)} → ${entityText(e.after)}`,
    })),
  ]);
  push("artifacts", "Artifacts", [
    ...diff.artifacts.removed.map((a) => ({
      sign: "-" as const,
      text: `${a.name} (${formatBytes(a.size)})`,
    })),
    ...diff.artifacts.added.map((a) => ({
      sign: "+" as const,
      text: `${a.name} (${formatBytes(a.size)})`,
    })),
    ...diff.artifacts.changed.map((a) => ({
      sign: "~" as const,
      text: `${a.name}: ${formatBytes(a.before_size)} → ${formatBytes(a.after_size)}${a.media_type_changed ? ", media type changed" : ""}`,
    })),
  ]);
  if (diff.metadata_changed)
    push("metadata", "Metadata", [{ sign: "~", text: "Metadata changed" }]);
  return sections;
}

/** "+3 −1 ~2" style counts. */
export function diffStats(sections: readonly DiffSection[]) {
  const stats = { added: 0, removed: 0, changed: 0 };
  for (const section of sections) {
    for (const line of section.lines) {
      if (line.sign === "+") stats.added += 1;
      else if (line.sign === "-") stats.removed += 1;
      else stats.changed += 1;
    }
  }
  return stats;
}
