import type { Checkpoint } from "@/api/models";
import { CheckpointName } from "@/components/checkpoint-name";
import { plural } from "@/lib/format";
import type { Moved } from "../lib/merge-form-state";
import type { MergePreview } from "../types";
import { RivalChoices } from "./rival-choices";

/** How the two lines stand: nothing to merge, a fast-forward, clean, or conflicts; and the base. */
export function MergeStatus({
  preview,
  ours,
  theirs,
  base,
  candidates,
}: {
  preview: MergePreview;
  ours: string;
  theirs: string;
  base: Checkpoint | null;
  candidates: number;
}) {
  const baseName = base ? <CheckpointName hash={base.commit_hash} message={base.message} /> : "…";
  const others =
    candidates > 1
      ? ` Both lines merged each other before: ${candidates} Checkpoints qualify; the newest is used.`
      : "";
  if (preview.relation === "up_to_date") {
    return (
      <p className="merge-status ok" data-testid="merge-status" role="status">
        Nothing to merge: everything on {theirs} is already in {ours}.
      </p>
    );
  }
  const changes =
    preview.relation === "fast_forward"
      ? `${ours} has not changed since ${theirs} started from it: the merge takes ${theirs}'s state as it is.`
      : preview.clean
        ? preview.rivals.length > 0
          ? `No conflicts: every change on either line merges cleanly, but the lines made rival choices (below).`
          : `No conflicts: every change on either line merges cleanly. It can be saved at once.`
        : `${plural(preview.conflicts.length, "conflict")} to choose; everything else merges on its own.`;
  return (
    <>
      <div className="merge-status" data-testid="merge-status" role="status">
        <p>{changes}</p>
        <p className="muted small">
          {preview.base_commit_id ? (
            <>
              Against their last shared Checkpoint {baseName}.{others}
            </>
          ) : (
            "The two lines share no Checkpoint: everything on each is an addition."
          )}
        </p>
      </div>
      <RivalChoices preview={preview} ours={ours} theirs={theirs} />
    </>
  );
}

/** After a 409: nothing was written, the merge ran again, which choices still apply. */
export function MovedNotice({
  moved,
  ours,
  theirs,
  head,
}: {
  moved: Moved;
  ours: string;
  theirs: string;
  head: Checkpoint | null;
}) {
  const { kept, dropped, open } = moved;
  return (
    <div className="conflict" role="alert" data-testid="merge-moved">
      <strong>{ours} moved while you were merging.</strong> Someone (a person or an agent) saved
      another Checkpoint on it, so nothing was written. The merge was run again against its new HEAD
      {head && (
        <>
          {" "}
          <CheckpointName hash={head.commit_hash} message={head.message} />
        </>
      )}
      .{" "}
      {moved.relation === "up_to_date" ? (
        <>
          Everything on {theirs} is in {ours} now: there is nothing left to merge.
        </>
      ) : (
        <>
          {kept > 0 && `${plural(kept, "choice")} still ${kept === 1 ? "applies" : "apply"}. `}
          {dropped.length > 0 &&
            `${plural(dropped.length, "choice")} no longer ${dropped.length === 1 ? "applies" : "apply"} (that conflict changed or went away). `}
          {open.length > 0
            ? `${plural(open.length, "conflict")} ${open.length === 1 ? "needs" : "need"} a choice. `
            : "Every conflict has a choice: check the result and save again."}
        </>
      )}
    </div>
  );
}
