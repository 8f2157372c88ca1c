import { useState } from "react";
import type { SendResponse } from "@/api/models";
import { EmptyState, FailureNotice, Loading } from "@/components/feedback";
import { ProviderPicker } from "@/features/providers";
import { useSendMessage } from "../api/send-message";
import { useChatSession } from "../lib/chat-session";
import { contextStart } from "../lib/context-start";
import { mountFields } from "../lib/history-base";
import { useSend } from "../lib/use-send";
import { ChatHeader } from "./chat-header";
import { Composer } from "./composer";
import { Nudge } from "./nudge";
import { TurnList } from "./turn-list";

/** The open Session's chat (from ChatSessionProvider): its header, its Turns and the composer. */
export function ChatView() {
  const { sessionId } = useChatSession();
  // A send's state belongs to its Session: another Session starts from a fresh machine.
  return <Chat key={sessionId} />;
}

function Chat() {
  const chat = useChatSession();
  const { spaceId, sessionId, turns, choice } = chat;
  const { mount } = chat.mount;
  const deliver = useSendMessage(spaceId);
  const send = useSend({
    send: ({ content, requestId, retryOf }) =>
      deliver({
        session_id: sessionId,
        content,
        request_id: requestId,
        ...(retryOf === null ? {} : { retry_of: retryOf }),
        ...(choice ? { provider: choice.provider, model: choice.model } : {}),
        ...mountFields(mount),
      }),
    via: choice,
  });
  const start = contextStart(mount, chat.session.base_commit_id ?? null, chat.checkpoints);
  const pending = send.state.status === "sending" ? send.state.message : null;
  const reply = send.state.status === "done" ? send.state.reply : null;
  const [dismissed, setDismissed] = useState<SendResponse | null>(null);
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
              Write the first message below. Mount a Checkpoint first to start from a saved state.
            </p>
          </EmptyState>
        ) : (
          <TurnList
            turns={turns}
            mount={start.boundary}
            mounted={
              start.named ? { hash: start.named.commit_hash, message: start.named.message } : null
            }
            pending={pending}
            sessionId={sessionId}
            onRetry={send.busy ? null : send.askAgain}
          />
        )}
      </div>
      <div className="visually-hidden" aria-live="polite">
        {reply ? `Reply ${reply.assistant_turn.sequence_number} from ${by} received.` : ""}
      </div>
      <footer className="chat-footer">
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
