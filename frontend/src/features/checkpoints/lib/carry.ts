import type { CheckpointFormValues } from "./form";

const key = (s: string) => s.trim();

/** `onto` with the changes `edited` made to `from`: removed items go, added ones follow. */
function rebaseList<T>(
  from: readonly T[],
  edited: readonly T[],
  onto: readonly T[],
  id: (item: T) => string,
): T[] {
  const before = new Map(from.map((i) => [key(id(i)), i]));
  const after = new Map(edited.filter((i) => key(id(i)) !== "").map((i) => [key(id(i)), i]));
  const removed = new Set([...before.keys()].filter((k) => !after.has(k)));
  // Added or edited against `from` (compared as saved: whole items).
  const changed = new Map(
    [...after].filter(([k, item]) => JSON.stringify(before.get(k)) !== JSON.stringify(item)),
  );
  const out: T[] = [];
  const seen = new Set<string>();
  for (const item of onto) {
    const k = key(id(item));
    if (removed.has(k)) continue;
    out.push(changed.get(k) ?? item);
    seen.add(k);
  }
  for (const [k, item] of changed) if (!seen.has(k)) out.push(item);
  return out;
}

/**
 * Moves a form from one parent to another, keeping what the person changed: `edited` holds
 * `from`'s state with their changes; the result holds `onto`'s state with the same changes
 * (items they removed are removed, items they added or edited are added or replace `onto`'s;
 * a summary they changed wins). Nothing `onto` has is dropped unless they removed it.
 */
export function rebaseForm(
  edited: CheckpointFormValues,
  from: CheckpointFormValues,
  onto: CheckpointFormValues,
): CheckpointFormValues {
  const text = (s: string) => s;
  return {
    message: edited.message,
    authorName: edited.authorName,
    summary: key(edited.summary) !== key(from.summary) ? edited.summary : onto.summary,
    decisions: rebaseList(from.decisions, edited.decisions, onto.decisions, text),
    assumptions: rebaseList(from.assumptions, edited.assumptions, onto.assumptions, text),
    openQuestions: rebaseList(from.openQuestions, edited.openQuestions, onto.openQuestions, text),
    tasks: rebaseList(from.tasks, edited.tasks, onto.tasks, (t) => t.text),
    entities: rebaseList(from.entities, edited.entities, onto.entities, (e) => e.name),
    artifacts: rebaseList(from.artifacts, edited.artifacts, onto.artifacts, (a) => a.name),
  };
}
