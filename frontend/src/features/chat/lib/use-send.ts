import { useRef, useState } from "react";
import { newRequestId } from "@/lib/ids";
import {
  idle,
  isInFlight,
  type OutgoingMessage,
  type SendEvent,
  type SendState,
  transition,
} from "./send-machine";

/** What a streamed delivery reports while the reply arrives (the transport's side). */
export interface DeliveryProgress {
  signal: AbortSignal;
  onBegin: () => void;
  /** The reply so far. */
  onText: (text: string) => void;
}

/** What the transport is asked to deliver. */
export interface SendInput {
  content: string;
  requestId: string;
  /** The user Turn of the last exchange this send asks again, or null for a new message. */
  retryOf: number | null;
}

interface UseSendOptions<Reply> {
  /** Delivers one message, reporting its reply as it arrives; rejects with the API's error, or
   * with the abort once `progress.signal` is aborted. */
  send: (input: SendInput, progress: DeliveryProgress) => Promise<Reply>;
  /** After a Stop: the server stores what had arrived a moment later. */
  onStopped?: () => void;
  /** The provider and model the message goes to, shown on its pending reply. */
  via?: { provider: string; model: string } | null;
  createRequestId?: () => string;
}

export interface SendController<Reply> {
  state: SendState<Reply>;
  /** True while a message is on its way. */
  busy: boolean;
  /** The text in the composer: emptied as a message typed in it goes (the message shows as
   * pending), and given back when nothing was stored (a failure, or a Stop before any reply). */
  draft: string;
  setDraft: (draft: string) => void;
  /** Sends the draft; null when refused (empty, or a message is on its way). Never rejects. */
  submit: () => Promise<void> | null;
  /** Sends the failed message again with its request_id; null when there is none to retry. */
  retry: () => Promise<void> | null;
  /** Asks the last exchange again (a new pair; the old one stays in the history); null when busy. */
  askAgain: (message: { content: string; sequence_number: number }) => Promise<void> | null;
  /** Stops the message on its way (the reply so far is kept, marked stopped); false if none is. */
  stop: () => boolean;
}

// One update of the reply on screen per frame, however many pieces arrive in it.
const nextFrame = (run: () => void): (() => void) => {
  if (typeof requestAnimationFrame === "function") {
    const id = requestAnimationFrame(run);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(run, 16);
  return () => clearTimeout(id);
};

/**
 * The one owner of a send's state: the machine of send-machine.ts, plus the draft it sends. The
 * composer, the pending rows, the provider picker and the nudge all read it from here.
 */
export function useSend<Reply>({
  send,
  onStopped,
  via = null,
  createRequestId = newRequestId,
}: UseSendOptions<Reply>): SendController<Reply> {
  const [state, setState] = useState<SendState<Reply>>(idle);
  const [draft, setDraft] = useState("");
  // Read and written synchronously, so a second send in the same tick is refused too.
  const current = useRef<SendState<Reply>>(state);
  // The delivery on its way: how to stop it, and the reply so far (ahead of the next frame).
  const delivery = useRef<{ requestId: string; abort: AbortController; text: string } | null>(null);

  const dispatch = (event: SendEvent<Reply>): boolean => {
    const next = transition(current.current, event);
    if (next === current.current) return false;
    current.current = next;
    setState(next);
    return true;
  };

  const deliver = (
    content: string,
    requestId: string,
    retryOf: number | null,
  ): Promise<void> | null => {
    const message: OutgoingMessage = {
      content,
      requestId,
      retryOf,
      provider: via?.provider ?? null,
      model: via?.model ?? null,
    };
    if (!dispatch({ type: "send", message })) return null;
    // The box empties as the message goes, if it holds what is sent (a retry of an earlier
    // exchange, or text edited after a failure, was not sent from it): the message shows as
    // pending instead, so the box does not look unsent. What was typed is kept to give back.
    const typed = retryOf === null && draft.trim() === content ? draft : null;
    if (typed !== null) setDraft("");
    // Nothing was stored: the text comes back, unless something else was typed meanwhile.
    const giveBack = () => {
      if (typed !== null) setDraft((text) => (text === "" ? typed : text));
    };
    const mine = { requestId, abort: new AbortController(), text: "" };
    delivery.current = mine;
    let cancelFrame: (() => void) | null = null;
    const progress: DeliveryProgress = {
      signal: mine.abort.signal,
      onBegin: () => dispatch({ type: "begin", requestId }),
      onText: (text) => {
        mine.text = text;
        cancelFrame ??= nextFrame(() => {
          cancelFrame = null;
          dispatch({ type: "text", requestId, text: mine.text });
        });
      },
    };
    const settle = async () => {
      try {
        const reply = await send({ content, requestId, retryOf }, progress);
        dispatch({ type: "succeed", requestId, reply });
      } catch (error) {
        // A stopped message is stored when some of its reply had arrived: then it is sent.
        if (mine.abort.signal.aborted) {
          if (!mine.text) giveBack();
        } else {
          dispatch({ type: "fail", requestId, error });
          giveBack();
        }
      } finally {
        cancelFrame?.();
        if (delivery.current === mine) delivery.current = null;
      }
    };
    return settle();
  };

  const submit = () => {
    const content = draft.trim();
    const now = current.current;
    if (!content || isInFlight(now)) return null;
    // The same text after a failure is the same message: keep its request_id.
    const requestId =
      now.status === "failed" && now.message.content === content && now.message.retryOf === null
        ? now.message.requestId
        : createRequestId();
    return deliver(content, requestId, null);
  };

  const retry = () => {
    const now = current.current;
    if (now.status !== "failed") return null;
    return deliver(now.message.content, now.message.requestId, now.message.retryOf);
  };

  const askAgain = (message: { content: string; sequence_number: number }) =>
    isInFlight(current.current)
      ? null
      : deliver(message.content, createRequestId(), message.sequence_number);

  const stop = () => {
    const mine = delivery.current;
    if (!mine || !isInFlight(current.current)) return false;
    // What had arrived shows as it is, not as of the last frame.
    if (mine.text) dispatch({ type: "text", requestId: mine.requestId, text: mine.text });
    dispatch({ type: "stop", requestId: mine.requestId });
    mine.abort.abort();
    onStopped?.();
    return true;
  };

  return { state, busy: isInFlight(state), draft, setDraft, submit, retry, askAgain, stop };
}
