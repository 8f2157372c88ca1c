import type { ListField, MergeState } from "../types";
import { keyOf } from "./items";

/** Where an item of the merged state came from, for a finding that points at it. */
export type Origin = "both" | "ours" | "theirs" | "neither";

/**
 * Which line had an item of the merged state (by its key: text or name): both, one, or neither
 * (the person wrote it while resolving). A finding whose items no single line had comes from
 * combining the lines; the server marks it so, this says which item came from where.
 */
export function originOf(
  field: ListField,
  item: unknown,
  ours: MergeState | null,
  theirs: MergeState | null,
): Origin {
  const key = keyOf(field, item);
  const has = (state: MergeState | null) =>
    (state?.[field] as readonly unknown[] | undefined)?.some((i) => keyOf(field, i) === key) ??
    false;
  const [o, t] = [has(ours), has(theirs)];
  if (o && t) return "both";
  if (o) return "ours";
  if (t) return "theirs";
  return "neither";
}
