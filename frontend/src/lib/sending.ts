/**
 * The Sessions this tab is sending a message in. The live event stream leaves their new Turns to
 * the send, which caches them with its answer: appending them first would show the stored pair
 * beside the pending message. Any other new Turns (another tab's, the CLI's, an agent's) the
 * stream appends.
 */
const sending = new Map<string, number>();

/** Runs `work` (one send in `sessionId`) with the Session marked as sending this tab's message. */
export async function whileSending<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
  sending.set(sessionId, (sending.get(sessionId) ?? 0) + 1);
  try {
    return await work();
  } finally {
    const left = (sending.get(sessionId) ?? 1) - 1;
    if (left > 0) sending.set(sessionId, left);
    else sending.delete(sessionId);
  }
}

export function isSending(sessionId: string): boolean {
  return sending.has(sessionId);
}
