import type { Checkpoint } from "@/api/models";
import { findById } from "@/lib/find-by-id";
import type { Mount } from "./history-base";

/** Where the model's context starts in a Session, and the Checkpoint it starts from. */
export interface ContextStart {
  /** The mounted Checkpoint; null when unmounted, or while it is not loaded yet. */
  mounted: Checkpoint | null;
  /** The Session's base (a fork's): in context whenever nothing is mounted. */
  base: { id: string; checkpoint: Checkpoint | null } | null;
  /** The boundary the Turn list draws: the mount's, else before the first Turn of a based Session. */
  boundary: Mount | null;
  /** The Checkpoint the boundary names. */
  named: Checkpoint | null;
}

export function contextStart(
  mount: Mount | null,
  baseId: string | null,
  checkpoints: readonly Checkpoint[],
): ContextStart {
  const mounted = mount ? findById(checkpoints, mount.checkpointId) : null;
  const base = baseId ? { id: baseId, checkpoint: findById(checkpoints, baseId) } : null;
  // Every Turn of a based Session is after its base: the boundary sits before Turn 1.
  const boundary = mount ?? (baseId ? { checkpointId: baseId, historyBaseSeq: 0 } : null);
  return { mounted, base, boundary, named: mount ? mounted : (base?.checkpoint ?? null) };
}
