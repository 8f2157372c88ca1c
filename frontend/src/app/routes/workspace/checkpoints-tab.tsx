import { useState } from "react";
import type { Checkpoint } from "@/api/models";
import { EmptyState, Loading } from "@/components/feedback";
import { CheckpointDetail, Timeline, VerifyHistory } from "@/features/checkpoints";
import { LinesPanel } from "@/features/lines";
import { MergeDialog } from "@/features/merges";
import { findById } from "@/lib/find-by-id";
import { useOpenSession, useWorkspace } from "./workspace-context";

const noProvider = { provider: null, model: null };

/** The Space's lines and timeline, or the selected Checkpoint in detail. */
export function CheckpointsTab({ onRestore }: { onRestore: (checkpoint: Checkpoint) => void }) {
  const { spaceId, checkpoints, checkpointsLoading, lines, headId, panel, setPanel } =
    useWorkspace();
  const session = useOpenSession();
  // What the open Session is based on is the Checkpoint its model works from: marked "mounted".
  const mountedId = session?.baseId ?? null;
  const selected = findById(checkpoints, panel.selected);
  const [merging, setMerging] = useState<string | null>(null);
  const reviewWith = session?.reviewWith ?? noProvider;

  if (checkpointsLoading) return <Loading what="Checkpoints" />;
  if (selected) {
    const mount = session?.mount;
    return (
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
          parent={findById(checkpoints, selected.parent_commit_id)}
          mergeParent={findById(checkpoints, selected.merge_parent_id)}
          headId={headId}
          mountedId={mountedId}
          onMount={mount ? () => mount(selected.id) : null}
          mounting={session?.mounting}
          onSelect={(id) => setPanel({ selected: id })}
          onRestore={() => onRestore(selected)}
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
    );
  }
  if (checkpoints.length === 0) {
    return (
      <EmptyState title="No Checkpoints yet">
        <p className="muted">
          Save one when the work reaches a point worth keeping — by hand, or drafted by the model
          from the conversation.
        </p>
      </EmptyState>
    );
  }
  return (
    <>
      <LinesPanel
        spaceId={spaceId}
        lines={lines}
        checkpoints={checkpoints}
        startAt={null}
        onMerge={setMerging}
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
      <MergeDialog
        spaceId={spaceId}
        lines={lines}
        theirs={merging}
        reviewWith={reviewWith}
        onClose={() => setMerging(null)}
        onMerged={(checkpoint) => {
          setMerging(null);
          setPanel({ selected: checkpoint.id });
        }}
      />
    </>
  );
}
