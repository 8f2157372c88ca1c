import { useState } from "react";
import type { Checkpoint, Line } from "@/api/models";
import { Dialog } from "@/components/dialog";
import { orderLines } from "@/features/checkpoints";
import { lineOptionLabel } from "@/features/lines";
import { MergeForm } from "./merge-form";

interface MergeDialogProps {
  spaceId: string;
  lines: readonly Line[];
  /** The line to merge in; null = closed. */
  theirs: string | null;
  /** The provider and model a review uses (the open Session's), else the server's default. */
  reviewWith: { provider: string | null; model: string | null };
  onClose: () => void;
  onMerged: (checkpoint: Checkpoint) => void;
}

/** "Merge line X into Y": what comes in and goes, each conflict chosen, reviewed, then saved. */
export function MergeDialog(props: MergeDialogProps) {
  return (
    <Dialog open={props.theirs !== null} title="Merge lines" onClose={props.onClose} wide>
      {props.theirs !== null && <MergeSides key={props.theirs} {...props} theirs={props.theirs} />}
    </Dialog>
  );
}

/** Into the default line, unless that is the line merged in: then into the next line. */
function defaultInto(lines: readonly Line[], theirs: string): string {
  const candidates = orderLines(lines).filter((l) => l.name !== theirs && l.head_commit_id);
  return candidates[0]?.name ?? "";
}

function MergeSides(props: MergeDialogProps & { theirs: string }) {
  const { lines } = props;
  const [theirs, setTheirs] = useState(props.theirs);
  const [ours, setOurs] = useState(() => defaultInto(lines, props.theirs));
  const withHead = orderLines(lines).filter((l) => l.head_commit_id);
  const pick = (side: "ours" | "theirs", name: string) => {
    // Picking the other side's line swaps the two: a line is never merged into itself.
    if (side === "ours") {
      if (name === theirs) setTheirs(ours);
      setOurs(name);
    } else {
      if (name === ours) setOurs(theirs);
      setTheirs(name);
    }
  };
  const option = (l: Line) => (
    <option key={l.name} value={l.name}>
      {lineOptionLabel(l)}
    </option>
  );
  return (
    <div className="merge-form">
      <div className="merge-pickers">
        <label className="field">
          <span>Merge line</span>
          <select
            aria-label="Merge from line"
            value={theirs}
            onChange={(e) => pick("theirs", e.target.value)}
          >
            {withHead.map(option)}
          </select>
        </label>
        <span className="merge-into" aria-hidden="true">
          →
        </span>
        <label className="field">
          <span>into</span>
          <select
            aria-label="Merge into line"
            value={ours}
            onChange={(e) => pick("ours", e.target.value)}
          >
            {ours === "" && <option value="">Choose a line</option>}
            {withHead.map(option)}
          </select>
        </label>
      </div>
      {ours === "" ? (
        <p className="muted">There is no other line with a Checkpoint to merge into.</p>
      ) : (
        <MergeForm key={`${ours}\n${theirs}`} {...props} ours={ours} theirs={theirs} />
      )}
    </div>
  );
}
