import { useState } from "react";
import type { Checkpoint, Line } from "@/api/models";
import { CheckpointName } from "@/components/checkpoint-name";
import { Dialog } from "@/components/dialog";
import { FailureNotice, Loading } from "@/components/feedback";
import { lineOptionLabel } from "@/features/lines";
import { findById } from "@/lib/find-by-id";
import { useCheckpointDiff } from "../api/diff-checkpoints";
import { useRestoreCheckpoint } from "../api/restore-checkpoint";
import { orderLines } from "../lib/lanes";
import { restoreDiff, restoreMessage } from "../lib/restore";
import { DiffView } from "./diff-view";

interface RestoreDialogProps {
  spaceId: string;
  /** The Checkpoint whose state is restored; null = closed. */
  source: Checkpoint | null;
  lines: readonly Line[];
  checkpoints: readonly Checkpoint[];
  onClose: () => void;
  onRestored: (checkpoint: Checkpoint) => void;
}

/** "Restore this state": a new Checkpoint on a line, equal to an older one; nothing is edited. */
export function RestoreDialog(props: RestoreDialogProps) {
  return (
    <Dialog open={props.source !== null} title="Restore this state" onClose={props.onClose} wide>
      {props.source && <RestoreForm key={props.source.id} {...props} source={props.source} />}
    </Dialog>
  );
}

function RestoreForm({
  spaceId,
  source,
  lines,
  checkpoints,
  onClose,
  onRestored,
}: RestoreDialogProps & { source: Checkpoint }) {
  const ordered = orderLines(lines);
  const [lineName, setLineName] = useState(ordered[0]?.name ?? "");
  const [typed, setTyped] = useState(() => restoreMessage(source, ""));
  // One value for the preview and the save: the diff names the message that is sent.
  const message = restoreMessage(source, typed);
  const restore = useRestoreCheckpoint(spaceId);
  const line = ordered.find((l) => l.name === lineName) ?? null;
  const headId = line?.head_commit_id ?? null;
  const head = findById(checkpoints, headId);
  const diff = useCheckpointDiff(headId, headId ? source.id : null);

  const submit = () =>
    restore.mutate(
      {
        ref: source.id,
        body: {
          ...(line ? { branch: line.name } : {}),
          message,
          expected_head_commit_id: headId,
        },
      },
      { onSuccess: onRestored },
    );

  return (
    <form
      className="restore-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <p className="muted small">
        Saves a new Checkpoint whose state equals{" "}
        <CheckpointName hash={source.commit_hash} message={source.message} /> on top of the line's
        HEAD, so the next person or agent reading that line starts from it. No Checkpoint is edited
        or removed.
      </p>
      <label className="field narrow">
        <span>Line</span>
        <select value={lineName} onChange={(e) => setLineName(e.target.value)}>
          {ordered.map((l) => (
            <option key={l.name} value={l.name}>
              {lineOptionLabel(l)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Message</span>
        <input value={typed} onChange={(e) => setTyped(e.target.value)} />
      </label>
      <h3 className="small">
        What changes on {lineName || "the line"}
        {head && (
          <>
            {" "}
            against its HEAD <CheckpointName hash={head.commit_hash} message={head.message} />
          </>
        )}
      </h3>
      {!headId ? (
        <p className="muted small">The line has no Checkpoint yet.</p>
      ) : diff.isPending ? (
        <Loading what="the changes" />
      ) : diff.data ? (
        <DiffView diff={restoreDiff(diff.data, message)} />
      ) : null}
      <FailureNotice error={restore.error} />
      <div className="dialog-footer">
        <div className="footer-buttons">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={restore.isPending}>
            {restore.isPending ? "Restoring…" : `Restore on ${lineName || "the line"}`}
          </button>
        </div>
      </div>
    </form>
  );
}
