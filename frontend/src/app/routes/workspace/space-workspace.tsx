import { useState } from "react";
import { Link } from "wouter";
import { EmptyState, FailureNotice } from "@/components/feedback";
import { useCheckpoints } from "@/features/checkpoints";
import { useLines } from "@/features/lines";
import { SessionSidebar } from "@/features/sessions";
import { useSpace } from "@/features/spaces";
import { shortHash } from "@/lib/format";
import { useDocumentTitle } from "@/lib/use-document-title";
import { TopBar } from "../../top-bar";
import { usePanelState } from "./panel-state";
import { SessionArea } from "./session-area";
import { SidePanel } from "./side-panel";
import { WorkspaceProvider } from "./workspace-context";

type MobileView = "sessions" | "chat" | "panel";

/** On a phone the three columns are views; the panel is two of them, so that the context is not
 * hidden under a "Checkpoints" tab. */
const mobileTabs: { label: string; view: MobileView; panelTab?: "checkpoints" | "context" }[] = [
  { label: "Sessions", view: "sessions" },
  { label: "Chat", view: "chat" },
  { label: "Checkpoints", view: "panel", panelTab: "checkpoints" },
  { label: "Context", view: "panel", panelTab: "context" },
];

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
          <FailureNotice error={space.error} />
          <p>
            <Link href="/">Back to your Spaces</Link>
          </p>
        </main>
      </>
    );
  }

  const list = checkpoints.data ?? [];
  const workspace = {
    spaceId,
    checkpoints: list,
    checkpointsLoading: checkpoints.isPending,
    lines: lines.data ?? [],
    headId: space.data?.head_commit_id ?? null,
    panel,
    setPanel,
  };

  return (
    <WorkspaceProvider value={workspace}>
      <TopBar spaceId={spaceId}>
        <nav className="crumbs" aria-label="Breadcrumb">
          <Link href="/">Spaces</Link>
          <span aria-hidden="true">/</span>
          <Link href={`/spaces/${spaceId}`} className="crumb-current">
            {space.data?.name ?? "…"}
          </Link>
        </nav>
        <nav className="top-nav" aria-label="Space">
          <Link
            href={`/spaces/${spaceId}/activity`}
            className="top-nav-link"
            title="Who changed what"
          >
            Activity
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
        {mobileTabs.map(({ label, view, panelTab }) => {
          const active =
            mobileView === view &&
            (panelTab === undefined || (panelTab === "context") === (panel.tab === "context"));
          return (
            <button
              key={label}
              type="button"
              className={active ? "active" : ""}
              aria-pressed={active}
              onClick={() => {
                setMobileView(view);
                // Checkpoints keeps Compare if that was open; Context is one view of its own.
                if (panelTab === "context") setPanel({ tab: "context" });
                else if (panelTab === "checkpoints" && panel.tab === "context")
                  setPanel({ tab: "checkpoints" });
              }}
            >
              {label}
            </button>
          );
        })}
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
          <SessionArea key={sessionId} sessionId={sessionId} />
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
            <SidePanel />
          </>
        )}
      </div>
    </WorkspaceProvider>
  );
}
