import { CheckpointName } from "@/components/checkpoint-name";

export interface MountedCheckpoint {
  hash: string;
  message: string;
}

/**
 * Where the model's context starts in the Turn list: the Session's base, before Turn 1, or the
 * mount the last message was sent with (a v4 mount: history, not the next message's context).
 */
export function Boundary({
  mounted,
  base,
  sentWith = false,
}: {
  mounted: MountedCheckpoint | null;
  base: number;
  /** The boundary the last message was sent with, not the next one's. */
  sentWith?: boolean;
}) {
  const named = mounted ? <CheckpointName hash={mounted.hash} message={mounted.message} /> : "…";
  if (sentWith) {
    return (
      <div className="mount-boundary" data-testid="mount-boundary">
        <span className="boundary-label">
          Mounted here for the last message: Checkpoint {named}
        </span>
        <span className="boundary-note">
          {base === 0
            ? "It was sent with no earlier Turn."
            : `Turns 1–${base} above were not in its context; the next message gets them.`}
        </span>
      </div>
    );
  }
  return (
    <div className="mount-boundary" data-testid="mount-boundary">
      <span className="boundary-label">Context starts here: Checkpoint {named}</span>
      <span className="boundary-note">
        {base === 0 ? "No earlier Turns." : `Turns 1–${base} above are not sent to the model.`}
      </span>
    </div>
  );
}
