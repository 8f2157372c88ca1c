import type { Turn } from "@/api/models";
import { isInContext, type Mount } from "./history-base";

/**
 * Retrying the last exchange (`retry_of` on a send): the model gets that exchange's context
 * again and a new pair is stored after it. The retried pair stays in the history and out of
 * every later context; the server decides both, this file only mirrors them for the list.
 */

/** The sequence numbers of the pairs that were asked again: each retry's `retry_of` and its reply. */
export function retriedSeqs(turns: readonly Turn[]): ReadonlySet<number> {
  const retried = new Set<number>();
  for (const turn of turns) {
    if (turn.retry_of != null) {
      retried.add(turn.retry_of);
      retried.add(turn.retry_of + 1);
    }
  }
  return retried;
}

/**
 * The user Turn of the exchange a retry can ask again: the Session's last two Turns, a message
 * and its reply, both in the context. Null when there is none (an empty Session, a mount after
 * the exchange).
 */
export function retryableExchange(turns: readonly Turn[], mount: Mount | null): Turn | null {
  const reply = turns.at(-1);
  const message = turns.at(-2);
  if (!reply || !message) return null;
  const pair =
    message.role === "user" &&
    reply.role === "assistant" &&
    reply.sequence_number === message.sequence_number + 1;
  return pair && isInContext(message, mount) ? message : null;
}
