import { useMemo, useState } from "react";
import { Link, useLocation } from "wouter";
import type { Checkpoint, Line } from "@/api/models";
import { ErrorNotice } from "@/components/dialog";
import { EmptyState, errorMessage, Loading } from "@/components/feedback";
import { ChatView, isInContext, mountFields, useSessionMount } from "@/features/chat";
import { CheckpointFormDialog, useCheckpoints } from "@/features/checkpoints";
import { ContextPanel } from "@/features/context";
import { useLines } from "@/features/lines";
import { useProviderChoice, useProviders } from "@/features/providers";
import {
  SessionOrigin,
  SessionSidebar,
  sessionTitle,
  useForkSession,
  useSession,
  useTurns,
} from "@/features/sessions";
import { useSpace } from "@/features/spaces";
import { shortHash } from "@/lib/format";
import { useDocumentTitle } from "@/lib/use-document-title";
import { TopBar } from "../top-bar";
import { usePanelState } from "./panel-state";
import { Panel } from "./workspace-panel";

type MobileView = "sessions" | "chat" | "panel";

/** One Space: its Sessions, the open Session's chat, and the Checkpoint / context panel. */
export function SpaceWorkspace({
  spaceId,
  sessionId,
}: {
  spaceId: string;
  sessionId: string | null;
}) {
  const space = useSpace(spaceId);
  useDocumentTitle(space.data?.name);
  const checkpoints = useCheckpoints(spaceId);
  const lines = useLines(spaceId);
  const [panel, setPanel] = usePanelState();
  const [mobileView, setMobileView] = useState<MobileView>(sessionId ? "chat" : "sessions");

  if (space.isError) {
    return (
      <>
        <TopBar />
        <main className="app-main page">
          <ErrorNotice message={errorMessage(space.error)} />
          <p>
            <Link href="/">Back to your Spaces</Link>
          </p>
        </main>
      </>
    );
  }

  const headId = space.data?.head_commit_id ?? null;
  const list = checkpoints.data ?? [];
  const lineList = lines.data ?? [];

  return (
    <>
      <TopBar>
        <nav className="crumbs" aria-label="Breadcrumb">
          <Link href="/">Spaces</Link>
          <span aria-hidden="true">/</span>
          <Link href={`/spaces/${spaceId}`} className="crumb-current">
            {space.data?.name ?? "…"}
          </Link>
        </nav>
        {space.data && (
          <span className="top-head" data-testid="space-head">
            {space.data.head_commit_hash ? (
              <>
                <span className="badge head">HEAD</span>{" "}
                <code>{shortHash(space.data.head_commit_hash)}</code>{" "}
                <span className="top-head-message">{space.data.head_message}</span>
              </>
            ) : (
              <span className="muted">No Checkpoint yet</span>
            )}
          </span>
        )}
      </TopBar>
      <nav className="mobile-tabs" aria-label="Views">
        {(["sessions", "chat", "panel"] as const).map((view) => (
          <button
            key={view}
            type="button"
            className={mobileView === view ? "active" : ""}
            aria-pressed={mobileView === view}
            onClick={() => setMobileView(view)}
          >
            {view === "sessions" ? "Sessions" : view === "chat" ? "Chat" : "Checkpoints"}
          </button>
        ))}
      </nav>
      <div className="workspace" data-view={mobileView}>
        <aside className="ws-sidebar">
          <SessionSidebar
            spaceId={spaceId}
            activeSessionId={sessionId}
            onNavigate={() => setMobileView("chat")}
            checkpoints={list}
          />
        </aside>
        {sessionId ? (
          <SessionArea
            key={sessionId}
            spaceId={spaceId}
            sessionId={sessionId}
            headId={headId}
            checkpoints={list}
            checkpointsLoading={checkpoints.isPending}
            lines={lineList}
            panel={panel}
            setPanel={setPanel}
            onSaved={(c) => setPanel({ tab: "checkpoints", selected: c.id })}
          />
        ) : (
          <>
            <main className="ws-main">
              <EmptyState title="Open or start a Session">
                <p className="muted">
                  Sessions are conversations with a model inside this Space. Pick one on the left or
                  start a new one.
                </p>
              </EmptyState>
            </main>
            <Panel
              spaceId={spaceId}
              panel={panel}
              setPanel={setPanel}
              checkpoints={list}
              checkpointsLoading={checkpoints.isPending}
              lines={lineList}
              headId={headId}
              mountedId={null}
              onMount={null}
              onFork={null}
              contextSlot={
                <p className="muted panel-pad">Open a Session to see what its model receives.</p>
              }
              reviewWith={{ provider: null, model: null }}
            />
          </>
        )}
      </div>
    </>
  );
}

interface SessionAreaProps {
  spaceId: string;
  sessionId: string;
  headId: string | null;
  checkpoints: Checkpoint[];
  checkpointsLoading: boolean;
  lines: readonly Line[];
  panel: ReturnType<typeof usePanelState>[0];
  setPanel: ReturnType<typeof usePanelState>[1];
  onSaved: (checkpoint: Checkpoint) => void;
}

function SessionArea({
  spaceId,
  sessionId,
  headId,
  checkpoints,
  checkpointsLoading,
  lines,
  panel,
  setPanel,
  onSaved,
}: SessionAreaProps) {
  const [, navigate] = useLocation();
  const fork = useForkSession(spaceId);
  const session = useSession(sessionId);
  const turns = useTurns(sessionId);
  const providers = useProviders();
  const { mount, ready, mountTo, unmount } = useSessionMount(
    sessionId,
    turns.data,
    session.data?.base_commit_id ?? null,
  );
  const [choice, setChoice] = useProviderChoice(sessionId, session.data, providers.data);
  const [form, setForm] = useState<{ open: boolean; mode: "blank" | "draft" }>({
    open: false,
    mode: "blank",
  });

  const byId = (id: string | null | undefined) => checkpoints.find((c) => c.id === id) ?? null;
  const head = byId(headId);
  const mounted = mount ? byId(mount.checkpointId) : null;
  const base = byId(session.data?.base_commit_id);
  // A save starts from what the model works from: the mount, else the Session's base, else HEAD.
  const parent = mounted ?? base ?? head;
  const inContext = mount ? mounted : base;
  const startFork = (checkpointId: string) =>
    fork.mutate(
      {
        sessionId,
        body: { checkpoint_id: checkpointId, title: `From “${byId(checkpointId)?.message ?? ""}”` },
      },
      { onSuccess: (next) => navigate(`/spaces/${spaceId}/sessions/${next.id}`) },
    );
  const contextRequest = useMemo(
    () => ({
      session_id: sessionId,
      ...mountFields(mount),
      ...(choice ? { provider: choice.provider, model: choice.model } : {}),
    }),
    [sessionId, mount, choice],
  );

  if (session.isError) {
    return (
      <main className="ws-main">
        <ErrorNotice message={errorMessage(session.error)} />
      </main>
    );
  }

  return (
    <>
      <main className="ws-main">
        {!session.data ? (
          <Loading what="the Session" />
        ) : (
          <ChatView
            spaceId={spaceId}
            sessionId={sessionId}
            session={session.data}
            title={sessionTitle(session.data)}
            turns={turns.data}
            turnsError={turns.error}
            mount={mount}
            mountReady={ready}
            onMount={mountTo}
            onUnmount={unmount}
            checkpoints={checkpoints}
            headId={headId}
            providers={providers.data}
            choice={choice}
            onChoice={setChoice}
            onSaveCheckpoint={() => setForm({ open: true, mode: "blank" })}
            onDraft={() => setForm({ open: true, mode: "draft" })}
            headerExtra={<SessionOrigin session={session.data} />}
          />
        )}
      </main>
      <Panel
        spaceId={spaceId}
        panel={panel}
        setPanel={setPanel}
        checkpoints={checkpoints}
        checkpointsLoading={checkpointsLoading}
        lines={lines}
        headId={headId}
        mountedId={mount?.checkpointId ?? null}
        onMount={ready ? mountTo : null}
        onFork={startFork}
        forking={fork.isPending}
        reviewWith={{ provider: choice?.provider ?? null, model: choice?.model ?? null }}
        contextSlot={
          <ContextPanel
            request={contextRequest}
            mountedLabel={
              inContext
                ? `${shortHash(inContext.commit_hash)} “${inContext.message}”`
                : mount
                  ? "…"
                  : null
            }
          />
        }
      />
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
                provider: choice?.provider ?? null,
                model: choice?.model ?? null,
              }
            : null
        }
        onClose={() => setForm((f) => ({ ...f, open: false }))}
        onSaved={(checkpoint) => {
          setForm((f) => ({ ...f, open: false }));
          onSaved(checkpoint);
        }}
      />
    </>
  );
}
