import { type KeyboardEvent, type ReactNode, useRef, useState } from "react";
import { ErrorNotice } from "@/components/dialog";
import { errorMessage } from "@/components/feedback";
import { newRequestId } from "@/lib/ids";

export interface SendInput {
  content: string;
  requestId: string;
}

interface ComposerProps {
  /** Sends one message; rejects with the API's error. */
  send: (input: SendInput) => Promise<unknown>;
  disabled?: boolean;
  disabledReason?: string;
  /** The provider/model picker, shown beside the send button. */
  tools?: ReactNode;
  createRequestId?: () => string;
}

interface Failure extends SendInput {
  message: string;
}

/**
 * The message box. Enter sends, Shift+Enter adds a line. While a message is on its way the box is
 * disabled; if the send fails the text stays, the error is shown, and Retry sends it again with
 * the same request_id, so a send that did reach the server is not stored twice.
 */
export function Composer({
  send,
  disabled = false,
  disabledReason,
  tools,
  createRequestId = newRequestId,
}: ComposerProps) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);

  const submit = async (input: SendInput) => {
    setSending(true);
    setFailure(null);
    try {
      await send(input);
      setText((current) =>
        current === input.content || current.trim() === input.content ? "" : current,
      );
    } catch (error) {
      setFailure({ ...input, message: errorMessage(error) });
    } finally {
      setSending(false);
      requestAnimationFrame(() => box.current?.focus());
    }
  };

  const sendTyped = () => {
    const content = text.trim();
    if (!content || sending || disabled) return;
    // The same text after a failure is the same message: keep its request_id.
    const requestId =
      failure && failure.content === content ? failure.requestId : createRequestId();
    void submit({ content, requestId });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      sendTyped();
    }
  };

  const blocked = sending || disabled;
  return (
    <div className="composer">
      {failure && (
        <ErrorNotice
          message={`Not sent: ${failure.message}`}
          action={
            <button
              type="button"
              className="btn small"
              disabled={blocked}
              onClick={() =>
                void submit({ content: failure.content, requestId: failure.requestId })
              }
            >
              Retry
            </button>
          }
        />
      )}
      <form
        className="composer-form"
        onSubmit={(event) => {
          event.preventDefault();
          sendTyped();
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
          value={text}
          rows={2}
          disabled={blocked}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="composer-bar">
          {tools}
          <button
            type="submit"
            className="btn primary send-button"
            disabled={blocked || !text.trim()}
          >
            {/* Both labels always take the same cell, so switching them moves nothing on screen. */}
            <span style={{ visibility: sending ? "hidden" : "visible" }}>Send</span>
            <span style={{ visibility: sending ? "visible" : "hidden" }}>Sending…</span>
          </button>
        </div>
      </form>
    </div>
  );
}
