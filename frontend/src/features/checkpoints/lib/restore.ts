import type { Checkpoint } from "@/api/models";
import type { CheckpointDiff } from "@/api/v5";

/**
 * The message a restore saves its new Checkpoint with: what the person typed, else the default
 * the dialog starts with. The dialog shows this one value in its diff and sends it, so what the
 * preview names is what is saved (issue 44 item 15).
 */
export function restoreMessage(source: Pick<Checkpoint, "message">, typed: string): string {
  return typed.trim() || `Restore “${source.message}”`;
}

/**
 * What a restore changes on a line: the diff from the line's HEAD to the restored state, but for
 * the message, which is the new Checkpoint's own (`message`), not the restored one's.
 */
export function restoreDiff(diff: CheckpointDiff, message: string): CheckpointDiff {
  const before = diff.message.before;
  const changed = before !== message;
  return {
    ...diff,
    identical: diff.identical && !changed,
    message: { changed, before, after: message },
  };
}
