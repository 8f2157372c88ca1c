/**
 * The life of one message the composer sends, as a state machine:
 *
 *   idle ──send──▶ sending ──succeed──▶ done
 *                     │
 *                     └────fail──────▶ failed
 *
 * and from done or failed, send again. Every state and every transition is in this file: a new
 * state (streaming's "receiving", between sending and done) is one more member of `SendState`,
 * one more row of `IN_FLIGHT` (the compiler asks for it) and its cases in `transition`.
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
  | { status: "failed"; message: OutgoingMessage; error: unknown }
  | { status: "done"; message: OutgoingMessage; reply: Reply };

export type SendStatus = SendState<unknown>["status"];

export type SendEvent<Reply> =
  | { type: "send"; message: OutgoingMessage }
  | { type: "succeed"; requestId: string; reply: Reply }
  | { type: "fail"; requestId: string; error: unknown };

/** Whether a message is on its way: then another send is refused and the composer is locked. */
const IN_FLIGHT: Record<SendStatus, boolean> = {
  idle: false,
  sending: true,
  failed: false,
  done: false,
};

export const idle = { status: "idle" } as const satisfies SendState<never>;

export function isInFlight(state: SendState<unknown>): boolean {
  return IN_FLIGHT[state.status];
}

/**
 * The state after `event`; the same object when the event does not apply (a send while one is on
 * its way, or the outcome of a send that is no longer the current one).
 */
export function transition<Reply>(
  state: SendState<Reply>,
  event: SendEvent<Reply>,
): SendState<Reply> {
  switch (event.type) {
    case "send":
      return isInFlight(state) ? state : { status: "sending", message: event.message };
    case "succeed":
      return state.status === "sending" && state.message.requestId === event.requestId
        ? { status: "done", message: state.message, reply: event.reply }
        : state;
    case "fail":
      return state.status === "sending" && state.message.requestId === event.requestId
        ? { status: "failed", message: state.message, error: event.error }
        : state;
  }
}
