import type { Checkpoint } from "@/api/models";
import { FailureNotice, Loading } from "@/components/feedback";
import { shortHash } from "@/lib/format";
import { useCheckpointDiff } from "../api/diff-checkpoints";
import { effectiveComparison } from "../lib/compare-default";
import { DiffView } from "./diff-view";

interface ComparePanelProps {
  checkpoints: readonly Checkpoint[];
  fromId: string | null;
  toId: string | null;
  /** For the default comparison: HEAD's parent → HEAD, or the selected Checkpoint's parent → it. */
  headId: string | null;
  selectedId: string | null;
  onChange: (fromId: string | null, toId: string | null) => void;
}

/** Pick any two Checkpoints of the Space and see what changed from the first to the second. */
export function ComparePanel({
  checkpoints,
  fromId: chosenFrom,
  toId: chosenTo,
  headId,
  selectedId,
  onChange,
}: ComparePanelProps) {
  const { fromId, toId } = effectiveComparison(
    { fromId: chosenFrom, toId: chosenTo },
    checkpoints,
    headId,
    selectedId,
  );
  const diff = useCheckpointDiff(fromId, toId);
  const option = (c: Checkpoint) => (
    <option key={c.id} value={c.id}>
      {shortHash(c.commit_hash)} — {c.message}
    </option>
  );
  return (
    <div className="compare-panel">
      <div className="compare-pickers">
        <label className="field">
          <span>From (older)</span>
          <select
            aria-label="Compare from"
            value={fromId ?? ""}
            onChange={(e) => onChange(e.target.value || null, toId)}
          >
            <option value="">Choose a Checkpoint</option>
            {checkpoints.map(option)}
          </select>
        </label>
        <button
          type="button"
          className="btn ghost icon swap"
          aria-label="Swap"
          title="Swap"
          onClick={() => onChange(toId, fromId)}
        >
          ⇅
        </button>
        <label className="field">
          <span>To (newer)</span>
          <select
            aria-label="Compare to"
            value={toId ?? ""}
            onChange={(e) => onChange(fromId, e.target.value || null)}
          >
            <option value="">Choose a Checkpoint</option>
            {checkpoints.map(option)}
          </select>
        </label>
      </div>
      {(!fromId || !toId) && <p className="muted">Choose two Checkpoints to compare.</p>}
      {diff.isLoading && <Loading what="the comparison" />}
      <FailureNotice error={diff.error} />
      {diff.data && <DiffView diff={diff.data} />}
    </div>
  );
}
