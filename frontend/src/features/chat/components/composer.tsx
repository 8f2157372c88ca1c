import { type KeyboardEvent, type ReactNode, useEffect, useRef } from "react";
import { ErrorNotice } from "@/components/dialog";
import { errorMessage } from "@/components/feedback";
import type { SendController } from "../lib/use-send";

interface ComposerProps {
  /** The send this box drives (useSend): its draft, whether it is on its way, its failure. */
  send: SendController<unknown>;
  disabled?: boolean;
  disabledReason?: string;
  /** The provider/model picker, shown beside the send button. */
  tools?: ReactNode;
}

/**
 * The message box. Enter sends, Shift+Enter adds a line. A message sent empties the box (it shows
 * as pending in the list); while it is on its way the box is disabled and the send button is Stop
 * (Escape too), which keeps the reply so far. If nothing was stored (the send failed, or was
 * stopped before any reply) the text comes back as typed; on a failure the error is shown, and
 * Retry sends it again with the same request_id, so a send that did reach the server is not
 * stored twice.
 */
export function Composer({ send, disabled = false, disabledReason, tools }: ComposerProps) {
  const box = useRef<HTMLTextAreaElement>(null);
  const { state, busy, draft } = send;

  // Back to the box once the send settles, either way, to type the next message or fix this one.
  const refocus = (settled: Promise<void> | null) =>
    void settled?.then(() => requestAnimationFrame(() => box.current?.focus()));

  const sendTyped = () => {
    if (disabled) return;
    refocus(send.submit());
  };

  // Escape stops a reply wherever the focus is (the box itself is disabled meanwhile).
  const stop = useRef(send.stop);
  stop.current = send.stop;
  useEffect(() => {
    if (!busy) return;
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) stop.current();
    };
    window.addEventListener("keydown", onEscape);
    return () => window.removeEventListener("keydown", onEscape);
  }, [busy]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      sendTyped();
    }
  };

  const blocked = busy || disabled;
  return (
    <div className="composer">
      {state.status === "failed" && (
        <ErrorNotice
          message={`Not sent: ${errorMessage(state.error)}`}
          action={
            <button
              type="button"
              className="btn small"
              disabled={blocked}
              onClick={() => refocus(send.retry())}
            >
              Retry
            </button>
          }
        />
      )}
      {/* A reply stopped after some text shows on its Turn ("stopped"); one stopped before any
          is not stored at all, and the box keeps the message: say so. */}
      {state.status === "stopped" && !state.text && (
        <p className="composer-note muted" role="status">
          Stopped before the reply began: nothing was stored.
        </p>
      )}
      <form
        className="composer-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (busy) send.stop();
          else sendTyped();
        }}
      >
        <textarea
          ref={box}
          aria-label="Message"
          className="composer-input"
          placeholder={
            disabled && disabledReason
              ? disabledReason
              : "Message the model — Enter to send, Shift+Enter for a new line"
          }
          value={draft}
          rows={2}
          disabled={blocked}
          onChange={(e) => send.setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="composer-bar">
          {tools}

          <button
            type="submit"
            className="btn primary send-button"
            disabled={busy ? false : disabled || !draft.trim()}
            aria-label={busy ? "Stop the reply" : "Send"}
            title={busy ? "Stop: keep what has arrived (Escape)" : undefined}
          >
            {/* Both labels always take the same cell, so switching them moves nothing on screen. */}
            <span style={{ visibility: busy ? "hidden" : "visible" }}>Send</span>
            <span style={{ visibility: busy ? "visible" : "hidden" }}>Stop</span>
          </button>
        </div>
      </form>
    </div>
  );
}
