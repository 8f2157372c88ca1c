import { type ReactNode, useState } from "react";
import type { Checkpoint, Line } from "@/api/models";
import { EmptyState, Loading } from "@/components/feedback";
import {
  CheckpointDetail,
  ComparePanel,
  RestoreDialog,
  Timeline,
  VerifyHistory,
} from "@/features/checkpoints";
import { LinesPanel } from "@/features/lines";
import type { PanelTab, usePanelState } from "./panel-state";

interface PanelProps {
  spaceId: string;
  panel: ReturnType<typeof usePanelState>[0];
  setPanel: ReturnType<typeof usePanelState>[1];
  checkpoints: Checkpoint[];
  checkpointsLoading: boolean;
  lines: readonly Line[];
  headId: string | null;
  mountedId: string | null;
  onMount: ((checkpointId: string) => void) | null;
  /** Continue from a Checkpoint in a new Session; null when no Session is open. */
  onFork: ((checkpointId: string) => void) | null;
  forking?: boolean;
  contextSlot: ReactNode;
  reviewWith: { provider: string | null; model: string | null };
}

const tabs: { id: PanelTab; label: string }[] = [
  { id: "checkpoints", label: "Checkpoints" },
  { id: "compare", label: "Compare" },
  { id: "context", label: "Context" },
];

/** The right-hand panel: the timeline of lines, a Checkpoint's detail, compare, the context. */
export function Panel({
  spaceId,
  panel,
  setPanel,
  checkpoints,
  checkpointsLoading,
  lines,
  headId,
  mountedId,
  onMount,
  onFork,
  forking,
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
                onFork={onFork ? () => onFork(selected.id) : null}
                forking={forking}
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
              <LinesPanel
                spaceId={spaceId}
                lines={lines}
                checkpoints={checkpoints}
                startAt={null}
              />
              <Timeline
                checkpoints={checkpoints}
                lines={lines}
                headId={headId}
                mountedId={mountedId}
                selectedId={panel.selected}
                onSelect={(id) => setPanel({ selected: id })}
              />
              <VerifyHistory spaceId={spaceId} />
            </>
          ))}
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
