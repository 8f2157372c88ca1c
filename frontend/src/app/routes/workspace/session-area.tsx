import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation, useSearch } from "wouter";
import { keys } from "@/api/keys";
import type { Checkpoint, Session, Turn } from "@/api/models";
import { FailureNotice, Loading } from "@/components/feedback";
import { type ChatSession, ChatSessionProvider, ChatView, type JustSaved } from "@/features/chat";
import { CheckpointFormDialog, type SaveSource, useCheckpoint } from "@/features/checkpoints";
import { useProviderChoice, useProviders } from "@/features/providers";
import { forkTitle, useForkSession, useSession, useTurns } from "@/features/sessions";
import { findById } from "@/lib/find-by-id";
import { shortHash } from "@/lib/format";
import { SidePanel } from "./side-panel";
import { type OpenSession, OpenSessionProvider, useWorkspace } from "./workspace-context";

type FormState = { open: boolean; mode: "blank" | "draft" };

/** The Session a save is made from, with the Turns it had: `metadata.source` of the Checkpoint. */
function saveSource(session: Session, turns: readonly Turn[] | undefined): SaveSource {
  const first = turns?.[0]?.sequence_number;
  const last = turns?.at(-1)?.sequence_number;
  return first !== undefined && last !== undefined
    ? { session_id: session.id, from_seq: first, to_seq: last }
    : { session_id: session.id };
}

/**
 * The open Session: assembles what its chat and the panel work from (its Turns, the server's
 * answer to what its next message and its next save start from, the provider choice) once, and
 * hands it to them through context.
 */
export function SessionArea({ sessionId }: { sessionId: string }) {
  const { spaceId, checkpoints, lines, headId, setPanel } = useWorkspace();
  const [, navigate] = useLocation();
  const search = useSearch();
  const queryClient = useQueryClient();
  const fork = useForkSession(spaceId);
  const session = useSession(sessionId);
  const turns = useTurns(sessionId);
  const providers = useProviders();
  const [choice, setChoice] = useProviderChoice(sessionId, session.data, providers.data);
  const [form, setForm] = useState<FormState>({ open: false, mode: "blank" });
  const [justSaved, setJustSaved] = useState<JustSaved | null>(null);

  const baseId = session.data?.base_commit_id ?? null;
  const base = findById(checkpoints, baseId);
  // A save goes on from what this Session saved last (on the line it went to), else from its
  // base, else from HEAD. The last save may be older than the Checkpoints loaded here.
  const lastSaved = session.data?.last_saved ?? null;
  const lastSavedLoaded = findById(checkpoints, lastSaved?.commit_id);
  const lastSavedFetched = useCheckpoint(
    lastSaved && !lastSavedLoaded ? lastSaved.commit_id : null,
  );
  const lastSavedCheckpoint: Checkpoint | null = lastSavedLoaded ?? lastSavedFetched.data ?? null;
  // The form takes its parent's state once, when it opens: it waits until that Checkpoint is
  // known (instead of opening on the base's state and keeping it when the last save arrives).
  const parentPending =
    lastSaved !== null && lastSavedCheckpoint === null && !lastSavedFetched.isError;
  const parent = lastSavedCheckpoint ?? base ?? findById(checkpoints, headId);
  const parentReason = lastSavedCheckpoint ? "last-saved" : base ? "base" : "head";
  const reviewWith = { provider: choice?.provider ?? null, model: choice?.model ?? null };

  const mount = (checkpointId: string) => {
    const target = findById(checkpoints, checkpointId);
    // Named as the server names a fork, after the last Checkpoint only (no growing chain of
    // suffixes); the server's own name when that Checkpoint is not loaded here.
    const title =
      session.data && target ? forkTitle(session.data.title, target.commit_hash) : undefined;
    fork.mutate(
      { sessionId, body: { checkpoint_id: checkpointId, ...(title ? { title } : {}) } },
      // The panel (its tab, the Checkpoint shown) stays as it was: the Space is the same.
      {
        onSuccess: (next) =>
          navigate(`/spaces/${spaceId}/sessions/${next.id}${search ? `?${search}` : ""}`),
      },
    );
  };

  const open: OpenSession = {
    baseId,
    mount,
    mounting: fork.isPending,
    reviewWith,
    context: {
      // Nothing but the Session and the provider: what the next message receives is the server's.
      request: {
        session_id: sessionId,
        ...(choice ? { provider: choice.provider, model: choice.model } : {}),
      },
      label: base ? `${shortHash(base.commit_hash)} “${base.message}”` : null,
    },
    session: session.data,
  };

  if (session.isError) {
    return (
      <main className="ws-main">
        <FailureNotice error={session.error} />
      </main>
    );
  }

  const chat: ChatSession | null = session.data
    ? {
        spaceId,
        sessionId,
        session: session.data,
        turns: turns.data,
        turnsError: turns.error,
        mount,
        mounting: fork.isPending,
        mountError: fork.error,
        checkpoints,
        headId,
        providers: providers.data,
        choice,
        setChoice,
        saveCheckpoint: () => setForm({ open: true, mode: "blank" }),
        draftCheckpoint: () => setForm({ open: true, mode: "draft" }),
        justSaved,
        dismissSaved: () => setJustSaved(null),
        onDeleted: () => navigate(`/spaces/${spaceId}`),
      }
    : null;

  return (
    <OpenSessionProvider value={open}>
      <main className="ws-main">
        {chat ? (
          <ChatSessionProvider value={chat}>
            <ChatView />
          </ChatSessionProvider>
        ) : (
          <Loading what="the Session" />
        )}
      </main>
      <SidePanel />
      <CheckpointFormDialog
        open={form.open && !parentPending}
        mode={form.mode}
        spaceId={spaceId}
        parent={parent}
        parentReason={parentReason}
        parentLine={lastSavedCheckpoint ? (lastSaved?.branch ?? null) : null}
        lines={lines}
        checkpoints={checkpoints}
        draftScope={turns.data?.length ? { sessionId, historyBaseSeq: null, ...reviewWith } : null}
        source={session.data ? saveSource(session.data, turns.data) : null}
        onClose={() => setForm((f) => ({ ...f, open: false }))}
        onSaved={(checkpoint, line) => {
          setForm((f) => ({ ...f, open: false }));
          setPanel({ tab: "checkpoints", selected: checkpoint.id });
          setJustSaved({ checkpoint, line });
          // The next save starts from it: known at once, before the Checkpoint list is read again.
          queryClient.setQueryData(keys.checkpoint(checkpoint.id), checkpoint);
          // What the next save starts from is the server's: shown at once, then read again.
          queryClient.setQueryData(keys.session(sessionId), (old: Session | undefined) =>
            old
              ? {
                  ...old,
                  last_saved: {
                    commit_id: checkpoint.id,
                    commit_hash: checkpoint.commit_hash,
                    branch: line,
                  },
                }
              : old,
          );
          void queryClient.invalidateQueries({ queryKey: keys.session(sessionId) });
        }}
      />
    </OpenSessionProvider>
  );
}
