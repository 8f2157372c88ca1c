import { useState } from "react";
import type { Checkpoint } from "@/api/models";
import { ComparePanel, RestoreDialog } from "@/features/checkpoints";
import { ProposalsInbox, useOpenProposalCount } from "@/features/proposals";
import { CheckpointsTab } from "./checkpoints-tab";
import { ContextTab } from "./context-tab";
import type { PanelTab } from "./panel-state";
import { useWorkspace } from "./workspace-context";

const tabs: { id: PanelTab; label: string }[] = [
  { id: "checkpoints", label: "Checkpoints" },
  { id: "compare", label: "Compare" },
  { id: "proposals", label: "Proposals" },
  { id: "context", label: "Context" },
];

/** The right-hand panel: the timeline of lines, a Checkpoint's detail, compare, the context. */
export function SidePanel() {
  const { spaceId, checkpoints, lines, headId, panel, setPanel } = useWorkspace();
  const [restoreFrom, setRestoreFrom] = useState<Checkpoint | null>(null);
  const openProposals = useOpenProposalCount(spaceId);
  return (
    <aside className="ws-panel" aria-label="Checkpoints and context" data-tab={panel.tab}>
      <div className="panel-tabs" role="tablist">
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            aria-selected={panel.tab === tab.id}
            className={`panel-tab panel-tab-${tab.id}${panel.tab === tab.id ? " active" : ""}`}
            onClick={() => setPanel({ tab: tab.id })}
          >
            {tab.label}
            {tab.id === "checkpoints" && checkpoints.length > 0 && (
              <span className="count">{checkpoints.length}</span>
            )}
            {tab.id === "proposals" && openProposals !== null && openProposals > 0 && (
              <span className="count" data-testid="open-proposals" title="Open proposals">
                {openProposals}
              </span>
            )}
          </button>
        ))}
      </div>
      <div className="panel-body" role="tabpanel">
        {panel.tab === "context" && <ContextTab />}
        {panel.tab === "compare" && (
          <ComparePanel
            checkpoints={checkpoints}
            fromId={panel.from}
            toId={panel.to}
            headId={headId}
            selectedId={panel.selected}
            onChange={(from, to) => setPanel({ from, to })}
          />
        )}
        {panel.tab === "checkpoints" && <CheckpointsTab onRestore={setRestoreFrom} />}
        {panel.tab === "proposals" && <ProposalsInbox spaceId={spaceId} lines={lines} />}
      </div>
      <RestoreDialog
        spaceId={spaceId}
        source={restoreFrom}
        lines={lines}
        checkpoints={checkpoints}
        onClose={() => setRestoreFrom(null)}
        onRestored={(checkpoint) => {
          setRestoreFrom(null);
          setPanel({ selected: checkpoint.id });
        }}
      />
    </aside>
  );
}
