import { useCallback, useMemo, useState } from "react";
import type { SendResponse, Turn } from "@/api/models";
import { EmptyState, FailureNotice, Loading } from "@/components/feedback";
import { AnsweredContextDialog } from "@/features/context";
import { ProviderPicker } from "@/features/providers";
import { useRefreshAfterStop, useSendMessage } from "../api/send-message";
import { useChatSession } from "../lib/chat-session";
import { contextStart } from "../lib/context-start";
import { mountFields, mountOf } from "../lib/history-base";
import { receivedText, type SendState } from "../lib/send-machine";
import { useSend } from "../lib/use-send";
import { ChatHeader } from "./chat-header";
import { Composer } from "./composer";
import { ContextNotices } from "./context-notices";
import { Nudge } from "./nudge";
import { TurnList } from "./turn-list";

/** The open Session's chat (from ChatSessionProvider): its header, its Turns and the composer. */
export function ChatView() {
  const { sessionId } = useChatSession();
  // A send's state belongs to its Session: another Session starts from a fresh machine.
  return <Chat key={sessionId} />;
}

/**
 * The exchange to show below the stored Turns: a message on its way with its reply so far, or a
 * stopped one until its stored pair arrives (one stopped before any text is not stored at all).
 */
function pendingSend(state: SendState<SendResponse>, turns: readonly Turn[] | undefined) {
  if (state.status === "sending" || state.status === "receiving") {
    return { ...state.message, text: receivedText(state), phase: state.status };
  }
  if (state.status === "stopped" && state.text) {
    const stored = turns?.some((turn) => turn.request_id === state.message.requestId);
    return stored ? null : { ...state.message, text: state.text, phase: state.status };
  }
  return null;
}

function Chat() {
  const chat = useChatSession();
  const { spaceId, sessionId, turns, choice } = chat;
  const deliver = useSendMessage(spaceId);
  const send = useSend({
    // No mount is sent: what a message receives is the Session's (its base and every Turn). A
    // retry asks its exchange again as it was asked: with the mount it was sent with, if any.
    send: ({ content, requestId, retryOf }, progress) => {
      const retried =
        retryOf === null ? undefined : turns?.find((t) => t.sequence_number === retryOf);
      return deliver(
        {
          session_id: sessionId,
          content,
          request_id: requestId,
          ...(retryOf === null ? {} : { retry_of: retryOf }),
          ...(choice ? { provider: choice.provider, model: choice.model } : {}),
          ...mountFields(retried ? mountOf(retried) : null),
        },
        progress,
      );
    },
    onStopped: useRefreshAfterStop(spaceId, sessionId),
    via: choice,
  });
  const start = useMemo(
    () => contextStart(chat.session.base_commit_id ?? null, turns ?? [], chat.checkpoints),
    [chat.session.base_commit_id, turns, chat.checkpoints],
  );
  const pending = useMemo(() => pendingSend(send.state, turns), [send.state, turns]);
  const reply = send.state.status === "done" ? send.state.reply : null;
  const [dismissed, setDismissed] = useState<SendResponse | null>(null);
  const [shownContext, setShownContext] = useState<number | null>(null);
  // Stable, so the memoised Turns do not re-render on every piece of a streamed reply.
  const showContext = useCallback((reply: Turn) => setShownContext(reply.sequence_number), []);
  const suggestion =
    reply && reply !== dismissed && reply.suggestion.checkpoint_recommended
      ? reply.suggestion
      : null;
  const by = reply?.assistant_turn.provider ?? "the model";

  return (
    <section className="chat" aria-label="Chat">
      <ChatHeader start={start} />
      <div className="chat-body">
        {chat.turnsError ? (
          <FailureNotice error={chat.turnsError} />
        ) : !turns ? (
          <Loading what="Turns" />
        ) : turns.length === 0 && !pending && !start.boundary ? (
          <EmptyState title="Nothing said yet">
            <p className="muted">
              Write the first message below. To start from a saved state, mount a Checkpoint: the
              Session continues in a new one based on it.
            </p>
          </EmptyState>
        ) : (
          <TurnList
            turns={turns}
            mount={start.boundary}
            sentWith={start.sentWith !== null}
            mounted={
              start.named ? { hash: start.named.commit_hash, message: start.named.message } : null
            }
            pending={pending}
            sessionId={sessionId}
            onRetry={send.busy ? null : send.askAgain}
            onShowContext={showContext}
          />
        )}
      </div>
      <div className="visually-hidden" aria-live="polite">
        {reply
          ? `Reply ${reply.assistant_turn.sequence_number} from ${by} received.`
          : send.state.status === "stopped" && send.state.text
            ? "Reply stopped: what had arrived is kept, marked stopped."
            : ""}
      </div>
      <AnsweredContextDialog
        sessionId={sessionId}
        sequenceNumber={shownContext}
        onClose={() => setShownContext(null)}
      />
      <footer className="chat-footer">
        <ContextNotices start={start} />
        {suggestion && (
          <Nudge
            suggestion={suggestion}
            onSave={chat.saveCheckpoint}
            onDraft={chat.draftCheckpoint}
            onDismiss={() => setDismissed(reply)}
          />
        )}
        <Composer
          send={send}
          disabled={!turns || !choice}
          disabledReason={!choice ? "No provider is configured on the server." : undefined}
          tools={
            <ProviderPicker
              providers={chat.providers}
              choice={choice}
              onChange={chat.setChoice}
              disabled={send.busy}
            />
          }
        />
      </footer>
    </section>
  );
}
