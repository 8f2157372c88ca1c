/**
 * The life of one message the composer sends, as a state machine:
 *
 *   idle ──send──▶ sending ──begin──▶ receiving ──succeed──▶ done
 *                     │                  │ ▲ text
 *                     │                  ├──fail──▶ failed
 *                     │                  └──stop──▶ stopped
 *                     ├──succeed──▶ done      (a reply stored earlier, replayed whole)
 *                     ├──fail──▶ failed       (refused, or the server could not be reached)
 *                     └──stop──▶ stopped
 *
 * and from done, failed or stopped, send again. Every state and every transition is in this
 * file; the composer, the pending rows and the Stop button all read the one state.
 */

/** A message from the moment it is sent until it settles; the pending rows show it. */
export interface OutgoingMessage {
  content: string;
  /** Kept across a retry, so a send that did reach the server is not stored twice. */
  requestId: string;
  /** The user Turn of the exchange this message asks again, or null for a new message. */
  retryOf: number | null;
  provider: string | null;
  model: string | null;
}

export type SendState<Reply> =
  | { status: "idle" }
  | { status: "sending"; message: OutgoingMessage }
  /** The provider is answering; `text` is the reply so far. */
  | { status: "receiving"; message: OutgoingMessage; text: string }
  | { status: "failed"; message: OutgoingMessage; error: unknown }
  /**
   * Stopped by the person: `text` is what had arrived. The server stores it as the reply, marked
   * stopped, when there is any (and nothing when there is none).
   */
  | { status: "stopped"; message: OutgoingMessage; text: string }
  | { status: "done"; message: OutgoingMessage; reply: Reply };

export type SendStatus = SendState<unknown>["status"];

export type SendEvent<Reply> =
  | { type: "send"; message: OutgoingMessage }
  | { type: "begin"; requestId: string }
  | { type: "text"; requestId: string; text: string }
  | { type: "succeed"; requestId: string; reply: Reply }
  | { type: "fail"; requestId: string; error: unknown }
  | { type: "stop"; requestId: string };

/** Whether a message is on its way: then another send is refused and the composer is locked. */
const IN_FLIGHT: Record<SendStatus, boolean> = {
  idle: false,
  sending: true,
  receiving: true,
  failed: false,
  stopped: false,
  done: false,
};

export const idle = { status: "idle" } as const satisfies SendState<never>;

export function isInFlight(state: SendState<unknown>): boolean {
  return IN_FLIGHT[state.status];
}

/** The text that had arrived, in a state that has some. */
export function receivedText(state: SendState<unknown>): string {
  return state.status === "receiving" || state.status === "stopped" ? state.text : "";
}

function isCurrent(state: SendState<unknown>, requestId: string): boolean {
  return isInFlight(state) && "message" in state && state.message.requestId === requestId;
}

/**
 * The state after `event`; the same object when the event does not apply (a send while one is on
 * its way, or news of a send that is no longer the current one, or has settled).
 */
export function transition<Reply>(
  state: SendState<Reply>,
  event: SendEvent<Reply>,
): SendState<Reply> {
  if (event.type === "send") {
    return isInFlight(state) ? state : { status: "sending", message: event.message };
  }
  if (!isCurrent(state, event.requestId) || !("message" in state)) return state;
  const { message } = state;
  switch (event.type) {
    case "begin":
      return state.status === "sending" ? { status: "receiving", message, text: "" } : state;
    case "text":
      return { status: "receiving", message, text: event.text };
    case "succeed":
      return { status: "done", message, reply: event.reply };
    case "fail":
      return { status: "failed", message, error: event.error };
    case "stop":
      return { status: "stopped", message, text: receivedText(state) };
  }
}
