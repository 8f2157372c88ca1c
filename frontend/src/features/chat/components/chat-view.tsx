import { type ReactNode, useCallback, useState } from "react";
import type { Checkpoint, ProviderList, Session, Suggestion, Turn } from "@/api/models";
import { ErrorNotice } from "@/components/dialog";
import { EmptyState, errorMessage, Loading } from "@/components/feedback";
import { type ProviderChoice, ProviderPicker } from "@/features/providers";
import { useSendMessage } from "../api/send-message";
import { isInContext, type Mount, mountFields } from "../lib/history-base";
import { Composer, type SendInput } from "./composer";
import { MountControl } from "./mount-control";
import { Nudge } from "./nudge";
import { type PendingSend, TurnList } from "./turn-list";

interface ChatViewProps {
  spaceId: string;
  session: Session | undefined;
  sessionId: string;
  turns: readonly Turn[] | undefined;
  turnsError: unknown;
  mount: Mount | null;
  mountReady: boolean;
  onMount: (checkpointId: string) => void;
  onUnmount: () => void;
  checkpoints: readonly Checkpoint[];
  headId: string | null;
  providers: ProviderList | undefined;
  choice: ProviderChoice | null;
  onChoice: (choice: ProviderChoice) => void;
  onSaveCheckpoint: () => void;
  onDraft: () => void;
  title: string;
  headerExtra?: ReactNode;
}

export function ChatView(props: ChatViewProps) {
  const { spaceId, sessionId, turns, mount, checkpoints, choice } = props;
  const send = useSendMessage(spaceId);
  const [pending, setPending] = useState<PendingSend | null>(null);
  const [suggestion, setSuggestion] = useState<Suggestion | null>(null);
  const [announcement, setAnnouncement] = useState("");
  // Draft with AI works from the Turns in context: after the boundary when mounted.
  const draftable = turns?.some((t) => isInContext(t, mount)) ?? false;
  const mountedCheckpoint = mount
    ? (checkpoints.find((c) => c.id === mount.checkpointId) ?? null)
    : null;
  // A Session with a base (a fork) has its boundary at its start: every Turn is after the base.
  const baseId = props.session?.base_commit_id ?? null;
  const base = baseId ? (checkpoints.find((c) => c.id === baseId) ?? null) : null;
  const shownMount = mount ?? (baseId ? { checkpointId: baseId, historyBaseSeq: 0 } : null);
  const shownCheckpoint = mount ? mountedCheckpoint : base;

  const sendMessage = useCallback(
    async ({ content, requestId }: SendInput) => {
      setPending({ content, provider: choice?.provider ?? null, model: choice?.model ?? null });
      setSuggestion(null);
      try {
        const result = await send.mutateAsync({
          session_id: sessionId,
          content,
          request_id: requestId,
          ...(choice ? { provider: choice.provider, model: choice.model } : {}),
          ...mountFields(mount),
        });
        setSuggestion(result.suggestion.checkpoint_recommended ? result.suggestion : null);
        const by = result.assistant_turn.provider ?? "the model";
        setAnnouncement(`Reply ${result.assistant_turn.sequence_number} from ${by} received.`);
      } finally {
        setPending(null);
      }
    },
    [send, sessionId, choice, mount],
  );

  return (
    <section className="chat" aria-label="Chat">
      <header className="chat-header">
        <div className="chat-title">
          <h1 title={props.title}>{props.title}</h1>
          {props.headerExtra}
        </div>
        <MountControl
          mount={mount}
          mounted={mountedCheckpoint}
          base={baseId ? { id: baseId, checkpoint: base } : null}
          checkpoints={checkpoints}
          headId={props.headId}
          ready={props.mountReady}
          onMount={props.onMount}
          onUnmount={props.onUnmount}
        />
        <div className="chat-actions">
          <button
            type="button"
            className="btn small"
            onClick={props.onDraft}
            disabled={!draftable}
            title={
              draftable
                ? "Let the model draft a Checkpoint from the Turns in context"
                : "No Turns in context to draft from yet"
            }
          >
            Draft with AI
          </button>
          <button type="button" className="btn small primary" onClick={props.onSaveCheckpoint}>
            Save checkpoint
          </button>
        </div>
      </header>
      <div className="chat-body">
        {props.turnsError ? (
          <ErrorNotice message={errorMessage(props.turnsError)} />
        ) : !turns ? (
          <Loading what="Turns" />
        ) : turns.length === 0 && !pending && !shownMount ? (
          <EmptyState title="Nothing said yet">
            <p className="muted">
              Write the first message below. Mount a Checkpoint first to start from a saved state.
            </p>
          </EmptyState>
        ) : (
          <TurnList
            turns={turns}
            mount={shownMount}
            mounted={
              shownCheckpoint
                ? { hash: shownCheckpoint.commit_hash, message: shownCheckpoint.message }
                : null
            }
            pending={pending}
            sessionId={sessionId}
          />
        )}
      </div>
      <div className="visually-hidden" aria-live="polite">
        {announcement}
      </div>
      <footer className="chat-footer">
        {suggestion && !pending && (
          <Nudge
            suggestion={suggestion}
            onSave={props.onSaveCheckpoint}
            onDraft={props.onDraft}
            onDismiss={() => setSuggestion(null)}
          />
        )}
        <Composer
          key={sessionId}
          send={sendMessage}
          disabled={!turns || !choice}
          disabledReason={!choice ? "No provider is configured on the server." : undefined}
          tools={
            <ProviderPicker
              providers={props.providers}
              choice={choice}
              onChange={props.onChoice}
              disabled={pending !== null}
            />
          }
        />
      </footer>
    </section>
  );
}
