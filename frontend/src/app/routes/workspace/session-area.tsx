import { useState } from "react";
import { useLocation } from "wouter";
import { FailureNotice, Loading } from "@/components/feedback";
import {
  type ChatSession,
  ChatSessionProvider,
  ChatView,
  isInContext,
  mountFields,
  useSessionMount,
} from "@/features/chat";
import { CheckpointFormDialog } from "@/features/checkpoints";
import { useProviderChoice, useProviders } from "@/features/providers";
import { useForkSession, useSession, useTurns } from "@/features/sessions";
import { findById } from "@/lib/find-by-id";
import { shortHash } from "@/lib/format";
import { SidePanel } from "./side-panel";
import { type OpenSession, OpenSessionProvider, useWorkspace } from "./workspace-context";

type FormState = { open: boolean; mode: "blank" | "draft" };

/**
 * The open Session: assembles what its chat and the panel work from (its Turns, mount and
 * provider choice) once, and hands it to them through context.
 */
export function SessionArea({ sessionId }: { sessionId: string }) {
  const { spaceId, checkpoints, lines, headId, setPanel } = useWorkspace();
  const [, navigate] = useLocation();
  const fork = useForkSession(spaceId);
  const session = useSession(sessionId);
  const turns = useTurns(sessionId);
  const providers = useProviders();
  const baseId = session.data?.base_commit_id ?? null;
  const sessionMount = useSessionMount(sessionId, turns.data, baseId);
  const { mount, ready, mountTo } = sessionMount;
  const [choice, setChoice] = useProviderChoice(sessionId, session.data, providers.data);
  const [form, setForm] = useState<FormState>({ open: false, mode: "blank" });

  const mounted = mount ? findById(checkpoints, mount.checkpointId) : null;
  const base = findById(checkpoints, baseId);
  // A save starts from what the model works from: the mount, else the Session's base, else HEAD.
  const parent = mounted ?? base ?? findById(checkpoints, headId);
  const inContext = mount ? mounted : base;
  const reviewWith = { provider: choice?.provider ?? null, model: choice?.model ?? null };

  const open: OpenSession = {
    mountedId: mount?.checkpointId ?? null,
    mount: ready ? mountTo : null,
    fork: (checkpointId) =>
      fork.mutate(
        {
          sessionId,
          body: {
            checkpoint_id: checkpointId,
            title: `From “${findById(checkpoints, checkpointId)?.message ?? ""}”`,
          },
        },
        { onSuccess: (next) => navigate(`/spaces/${spaceId}/sessions/${next.id}`) },
      ),
    forking: fork.isPending,
    reviewWith,
    context: {
      request: {
        session_id: sessionId,
        ...mountFields(mount),
        ...(choice ? { provider: choice.provider, model: choice.model } : {}),
      },
      label: inContext
        ? `${shortHash(inContext.commit_hash)} “${inContext.message}”`
        : mount
          ? "…"
          : null,
    },
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
        mount: sessionMount,
        checkpoints,
        headId,
        providers: providers.data,
        choice,
        setChoice,
        saveCheckpoint: () => setForm({ open: true, mode: "blank" }),
        draftCheckpoint: () => setForm({ open: true, mode: "draft" }),
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
        open={form.open}
        mode={form.mode}
        spaceId={spaceId}
        parent={parent}
        parentReason={mounted ? "mounted" : base ? "base" : "head"}
        lines={lines}
        checkpoints={checkpoints}
        draftScope={
          turns.data?.some((t) => isInContext(t, mount))
            ? {
                sessionId,
                historyBaseSeq: mount?.historyBaseSeq ?? null,
                ...reviewWith,
              }
            : null
        }
        onClose={() => setForm((f) => ({ ...f, open: false }))}
        onSaved={(checkpoint) => {
          setForm((f) => ({ ...f, open: false }));
          setPanel({ tab: "checkpoints", selected: checkpoint.id });
        }}
      />
    </OpenSessionProvider>
  );
}
