import type { Checkpoint } from "@/api/models";
import { findById } from "@/lib/find-by-id";

export interface Comparison {
  fromId: string | null;
  toId: string | null;
}

/**
 * What Compare shows before anything is chosen: the selected Checkpoint against its parent, else
 * HEAD against its parent — the change a person most likely wants to see. A first Checkpoint has
 * no parent: then only "to" is filled in.
 */
export function defaultComparison(
  checkpoints: readonly Checkpoint[],
  headId: string | null,
  selectedId: string | null,
): Comparison {
  const to = findById(checkpoints, selectedId) ?? findById(checkpoints, headId);
  if (!to) return { fromId: null, toId: null };
  return { fromId: to.parent_commit_id, toId: to.id };
}

/** The chosen pair, or the default one while nothing is chosen. */
export function effectiveComparison(
  chosen: Comparison,
  checkpoints: readonly Checkpoint[],
  headId: string | null,
  selectedId: string | null,
): Comparison {
  if (chosen.fromId !== null || chosen.toId !== null) return chosen;
  return defaultComparison(checkpoints, headId, selectedId);
}
