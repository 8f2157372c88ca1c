import { ContextPanel } from "@/features/context";
import { useOpenSession } from "./workspace-context";

/** Exactly what the open Session's model receives next; nothing to show without a Session. */
export function ContextTab() {
  const session = useOpenSession();
  if (!session) {
    return <p className="muted panel-pad">Open a Session to see what its model receives.</p>;
  }
  return <ContextPanel request={session.context.request} mountedLabel={session.context.label} />;
}
