import type { CommitCreate } from "@/api/models";
import type { DiffLine, DiffSection } from "./diff";
import { type CheckpointFormValues, formToCommit } from "./form";
import { entityText, taskText } from "./item-text";

/** The state of a form as it would be saved (trimmed, empty items dropped). */
function saved(values: CheckpointFormValues): CommitCreate {
  return formToCommit(values, { spaceId: "", expectedHead: null });
}

const plus = (text: string): DiffLine => ({ sign: "+", text });
const minus = (text: string): DiffLine => ({ sign: "-", text });

function byKey<T>(items: readonly T[], key: (item: T) => string, show: (item: T) => string) {
  return (after: readonly T[]): DiffLine[] => {
    const before = new Map(items.map((i) => [key(i), i]));
    const now = new Map(after.map((i) => [key(i), i]));
    const lines: DiffLine[] = [];
    for (const [k, item] of before) if (!now.has(k)) lines.push(minus(show(item)));
    for (const [k, item] of now) if (!before.has(k)) lines.push(plus(show(item)));
    for (const [k, item] of now) {
      const old = before.get(k);
      if (old !== undefined && JSON.stringify(old) !== JSON.stringify(item))
        lines.push({ sign: "~", text: `${show(old)} → ${show(item)}` });
    }
    return lines;
  };
}

/**
 * What saving these values changes against the parent's state, field by field (the message is
 * the new Checkpoint's own and is not compared). Empty when the state is the parent's.
 */
export function diffAgainstParent(
  parent: CheckpointFormValues,
  values: CheckpointFormValues,
): DiffSection[] {
  const [a, b] = [saved(parent), saved(values)];
  const sections: DiffSection[] = [];
  const push = (field: string, title: string, lines: DiffLine[]) => {
    if (lines.length > 0) sections.push({ field, title, lines });
  };
  const text = (s: string) => s;
  if ((a.summary ?? "") !== (b.summary ?? ""))
    push("summary", "Summary", [
      ...(a.summary ? [minus(a.summary)] : []),
      ...(b.summary ? [plus(b.summary)] : []),
    ]);
  push("decisions", "Decisions", byKey(a.decisions ?? [], text, text)(b.decisions ?? []));
  push("assumptions", "Assumptions", byKey(a.assumptions ?? [], text, text)(b.assumptions ?? []));
  push("tasks", "Tasks", byKey(a.tasks ?? [], (t) => t.text, taskText)(b.tasks ?? []));
  push(
    "open_questions",
    "Open questions",
    byKey(a.open_questions ?? [], text, text)(b.open_questions ?? []),
  );
  push(
    "entities",
    "Entities",
    byKey(a.entities ?? [], (e) => e.name, entityText)(b.entities ?? []),
  );
  push(
    "artifacts",
    "Artifacts",
    byKey(
      a.artifacts ?? [],
      (x) => x.name,
      (x) => `${x.name} (${x.content.length} characters)`,
    )(b.artifacts ?? []),
  );
  return sections;
}
