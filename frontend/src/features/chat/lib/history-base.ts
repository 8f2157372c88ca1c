/**
 * The mount boundary. Mounting a Checkpoint computes `history_base_seq` from the Turns the app
 * holds for the Session — the highest `sequence_number`, 0 for an empty Session — and sends it
 * with every message, so the model receives the Checkpoint plus only the Turns above it
 * (`sequence_number > history_base_seq`). This file is the one place that computes it.
 */

export interface Sequenced {
  sequence_number: number;
}

export interface Mount {
  checkpointId: string;
  historyBaseSeq: number;
}

/** history_base_seq for a mount made now: the max sequence_number held, or 0 when there is none. */
export function computeHistoryBaseSeq(turns: readonly Sequenced[]): number {
  let max = 0;
  for (const turn of turns) {
    if (turn.sequence_number > max) max = turn.sequence_number;
  }
  return max;
}

/** Mount a Checkpoint on the Session as the app holds it now. */
export function mountCheckpoint(checkpointId: string, turns: readonly Sequenced[]): Mount {
  return { checkpointId, historyBaseSeq: computeHistoryBaseSeq(turns) };
}

/** Whether the model receives this Turn: every Turn when unmounted, else only those above the boundary. */
export function isInContext(turn: Sequenced, mount: Mount | null): boolean {
  return mount === null || turn.sequence_number > mount.historyBaseSeq;
}

/** The mount fields of a send, context preview or draft request. */
export function mountFields(mount: Mount | null): {
  checkpoint_id?: string;
  history_base_seq?: number;
} {
  return mount === null
    ? {}
    : { checkpoint_id: mount.checkpointId, history_base_seq: mount.historyBaseSeq };
}
