import { type ReactNode, useMemo, useState } from "react";
import { Link } from "wouter";
import type { Checkpoint } from "@/api/models";
import { ErrorNotice } from "@/components/dialog";
import { EmptyState, errorMessage, Loading } from "@/components/feedback";
import { ChatView, isInContext, mountFields, useSessionMount } from "@/features/chat";
import {
  CheckpointDetail,
  CheckpointFormDialog,
  ComparePanel,
  Timeline,
  useCheckpoints,
  VerifyHistory,
} from "@/features/checkpoints";
import { ContextPanel } from "@/features/context";
import { useProviderChoice, useProviders } from "@/features/providers";
import { SessionSidebar, sessionTitle, useSession, useTurns } from "@/features/sessions";
import { useSpace } from "@/features/spaces";
import { shortHash } from "@/lib/format";
import { useDocumentTitle } from "@/lib/use-document-title";
import { TopBar } from "../top-bar";
import { type PanelTab, usePanelState } from "./panel-state";

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
              headId={headId}
              mountedId={null}
              onMount={null}
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
  panel,
  setPanel,
  onSaved,
}: SessionAreaProps) {
  const session = useSession(sessionId);
  const turns = useTurns(sessionId);
  const providers = useProviders();
  const { mount, ready, mountTo, unmount } = useSessionMount(sessionId, turns.data);
  const [choice, setChoice] = useProviderChoice(sessionId, session.data, providers.data);
  const [form, setForm] = useState<{ open: boolean; mode: "blank" | "draft" }>({
    open: false,
    mode: "blank",
  });

  const head = checkpoints.find((c) => c.id === headId) ?? null;
  const mounted = mount ? (checkpoints.find((c) => c.id === mount.checkpointId) ?? null) : null;
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
          />
        )}
      </main>
      <Panel
        spaceId={spaceId}
        panel={panel}
        setPanel={setPanel}
        checkpoints={checkpoints}
        checkpointsLoading={checkpointsLoading}
        headId={headId}
        mountedId={mount?.checkpointId ?? null}
        onMount={ready ? mountTo : null}
        reviewWith={{ provider: choice?.provider ?? null, model: choice?.model ?? null }}
        contextSlot={
          <ContextPanel
            request={contextRequest}
            mountedLabel={
              mounted
                ? `${shortHash(mounted.commit_hash)} “${mounted.message}”`
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
        head={head}
        headId={headId}
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

interface PanelProps {
  spaceId: string;
  panel: ReturnType<typeof usePanelState>[0];
  setPanel: ReturnType<typeof usePanelState>[1];
  checkpoints: Checkpoint[];
  checkpointsLoading: boolean;
  headId: string | null;
  mountedId: string | null;
  onMount: ((checkpointId: string) => void) | null;
  contextSlot: ReactNode;
  reviewWith: { provider: string | null; model: string | null };
}

const tabs: { id: PanelTab; label: string }[] = [
  { id: "checkpoints", label: "Checkpoints" },
  { id: "compare", label: "Compare" },
  { id: "context", label: "Context" },
];

function Panel({
  spaceId,
  panel,
  setPanel,
  checkpoints,
  checkpointsLoading,
  headId,
  mountedId,
  onMount,
  contextSlot,
  reviewWith,
}: PanelProps) {
  const selected = panel.selected
    ? (checkpoints.find((c) => c.id === panel.selected) ?? null)
    : null;
  const [restoreFrom, setRestoreFrom] = useState<Checkpoint | null>(null);
  return (
    <aside className="ws-panel" aria-label="Checkpoints and context">
      <div className="panel-tabs" role="tablist">
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            aria-selected={panel.tab === tab.id}
            className={panel.tab === tab.id ? "panel-tab active" : "panel-tab"}
            onClick={() => setPanel({ tab: tab.id })}
          >
            {tab.label}
            {tab.id === "checkpoints" && checkpoints.length > 0 && (
              <span className="count">{checkpoints.length}</span>
            )}
          </button>
        ))}
      </div>
      <div className="panel-body" role="tabpanel">
        {panel.tab === "context" && contextSlot}
        {panel.tab === "compare" && (
          <ComparePanel
            checkpoints={checkpoints}
            fromId={panel.from}
            toId={panel.to}
            onChange={(from, to) => setPanel({ from, to })}
          />
        )}
        {panel.tab === "checkpoints" &&
          (checkpointsLoading ? (
            <Loading what="Checkpoints" />
          ) : selected ? (
            <div className="panel-pad">
              <button
                type="button"
                className="link-button back"
                onClick={() => setPanel({ selected: null })}
              >
                ← All Checkpoints
              </button>
              <CheckpointDetail
                checkpoint={selected}
                parent={checkpoints.find((c) => c.id === selected.parent_commit_id) ?? null}
                headId={headId}
                mountedId={mountedId}
                onMount={onMount ? () => onMount(selected.id) : null}
                onSelect={(id) => setPanel({ selected: id })}
                onRestore={() => setRestoreFrom(selected)}
                onCompare={() =>
                  setPanel({
                    tab: "compare",
                    from: selected.parent_commit_id ?? panel.from,
                    to: selected.id,
                  })
                }
                reviewWith={reviewWith}
              />
            </div>
          ) : checkpoints.length === 0 ? (
            <EmptyState title="No Checkpoints yet">
              <p className="muted">
                Save one when the work reaches a point worth keeping — by hand, or drafted by the
                model from the conversation.
              </p>
            </EmptyState>
          ) : (
            <>
              <Timeline
                checkpoints={checkpoints}
                headId={headId}
                mountedId={mountedId}
                selectedId={panel.selected}
                onSelect={(id) => setPanel({ selected: id })}
              />
              <VerifyHistory spaceId={spaceId} />
            </>
          ))}
      </div>
      <CheckpointFormDialog
        open={restoreFrom !== null}
        mode="blank"
        spaceId={spaceId}
        head={checkpoints.find((c) => c.id === headId) ?? null}
        headId={headId}
        draftScope={null}
        restoreFrom={restoreFrom}
        onClose={() => setRestoreFrom(null)}
        onSaved={(checkpoint) => {
          setRestoreFrom(null);
          setPanel({ selected: checkpoint.id });
        }}
      />
    </aside>
  );
}
