import type { Checkpoint, Turn } from "@/api/models";
import { findById } from "@/lib/find-by-id";
import { lastSentMount, type Mount } from "./history-base";

/** Where the model's context starts in a Session, as the server keeps it, and what to draw. */
export interface ContextStart {
  /** The Session's base (a fork's): in the context of every message sent in it. */
  base: { id: string; checkpoint: Checkpoint | null } | null;
  /**
   * The mount the last message was sent with (a v4 mount, by an agent or an older version of
   * this app): history. The next message from here gets the base and every Turn.
   */
  sentWith: { mount: Mount; checkpoint: Checkpoint | null } | null;
  /** The boundary the Turn list draws: the last message's mount, else before Turn 1 of a based Session. */
  boundary: Mount | null;
  /** The Checkpoint the boundary names. */
  named: Checkpoint | null;
}

export function contextStart(
  baseId: string | null,
  turns: readonly Turn[],
  checkpoints: readonly Checkpoint[],
): ContextStart {
  const base = baseId ? { id: baseId, checkpoint: findById(checkpoints, baseId) } : null;
  const sent = lastSentMount(turns);
  const sentWith = sent
    ? { mount: sent, checkpoint: findById(checkpoints, sent.checkpointId) }
    : null;
  // Every Turn of a based Session is after its base: that boundary sits before Turn 1.
  const boundary = sent ?? (baseId ? { checkpointId: baseId, historyBaseSeq: 0 } : null);
  return {
    base,
    sentWith,
    boundary,
    named: sentWith ? sentWith.checkpoint : (base?.checkpoint ?? null),
  };
}
