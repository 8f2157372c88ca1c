import { ContextPanel } from "@/features/context";
import { findById } from "@/lib/find-by-id";
import { shortHash } from "@/lib/format";
import { useOpenSession, useWorkspace } from "./workspace-context";

/**
 * Exactly what the open Session's model receives next, as the server answers it (the same in
 * every browser), and where its next save starts; nothing to show without a Session.
 */
export function ContextTab() {
  const session = useOpenSession();
  const { checkpoints } = useWorkspace();
  if (!session) {
    return <p className="muted panel-pad">Open a Session to see what its model receives.</p>;
  }
  const saved = session.session?.last_saved ?? null;
  const checkpoint = findById(checkpoints, saved?.commit_id);
  const nextSave = saved
    ? `${checkpoint ? `${shortHash(checkpoint.commit_hash)} “${checkpoint.message}”` : "a Checkpoint"}${
        // No line: it was deleted since, or the save is older than lines being recorded.
        saved.branch ? ` on line ${saved.branch}` : ", on a line not known now"
      }`
    : null;
  return (
    <ContextPanel
      request={session.context.request}
      mountedLabel={session.context.label}
      nextSave={nextSave}
    />
  );
}
