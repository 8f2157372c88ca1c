import type { Turn } from "@/api/models";

/**
 * The v4 per-request mount: a Checkpoint and a boundary (`history_base_seq`) sent with a message,
 * so the model receives that Checkpoint plus only the Turns above the boundary. This app no
 * longer mounts that way: mounting starts a Session based on the Checkpoint, which is server
 * state, the same in every browser (docs/api.md, "A Session's context lives on the server"). Agents still may, and a Turn sent so records
 * its mount: this file reads it back, to draw it and to ask that exchange again as it was asked.
 */

export interface Sequenced {
  sequence_number: number;
}

export interface Mount {
  checkpointId: string;
  historyBaseSeq: number;
}

/** Whether the model receives this Turn: every Turn when unmounted, else only those above the boundary. */
export function isInContext(turn: Sequenced, mount: Mount | null): boolean {
  return mount === null || turn.sequence_number > mount.historyBaseSeq;
}

/** The mount fields of a request (a retry of an exchange sent with a mount sends them again). */
export function mountFields(mount: Mount | null): {
  checkpoint_id?: string;
  history_base_seq?: number;
} {
  return mount === null
    ? {}
    : { checkpoint_id: mount.checkpointId, history_base_seq: mount.historyBaseSeq };
}

/**
 * The mount a message was sent with. A based Session's Turns record their base with no
 * boundary, which is not a mount: a mount always has a `history_base_seq`.
 */
export function mountOf(turn: Pick<Turn, "checkpoint_id" | "history_base_seq">): Mount | null {
  return turn.checkpoint_id && turn.history_base_seq != null
    ? { checkpointId: turn.checkpoint_id, historyBaseSeq: turn.history_base_seq }
    : null;
}

/** The mount the Session's last message was sent with, if it was (by an agent, or by an older
 * version of this app). */
export function lastSentMount(turns: readonly Turn[]): Mount | null {
  for (let i = turns.length - 1; i >= 0; i -= 1) {
    const turn = turns[i];
    if (turn?.role === "user") return mountOf(turn);
  }
  return null;
}
