import { SessionOrigin, SessionTitle } from "@/features/sessions";
import { useChatSession } from "../lib/chat-session";
import type { ContextStart } from "../lib/context-start";
import { isInContext } from "../lib/history-base";
import { MountControl } from "./mount-control";

/** The Session's title and origin, what the model works from, and the Checkpoint actions. */
export function ChatHeader({ start }: { start: ContextStart }) {
  const { session, turns, mount, checkpoints, headId, saveCheckpoint, draftCheckpoint } =
    useChatSession();
  // Draft with AI works from the Turns in context: after the boundary when mounted.
  const draftable = turns?.some((t) => isInContext(t, mount.mount)) ?? false;
  return (
    <header className="chat-header">
      <div className="chat-title">
        <SessionTitle session={session} />
        <SessionOrigin session={session} />
      </div>
      <MountControl
        mount={mount.mount}
        mounted={start.mounted}
        base={start.base}
        checkpoints={checkpoints}
        headId={headId}
        ready={mount.ready}
        onMount={mount.mountTo}
        onUnmount={mount.unmount}
      />
      <div className="chat-actions">
        <button
          type="button"
          className="btn small"
          onClick={draftCheckpoint}
          disabled={!draftable}
          title={
            draftable
              ? "Let the model draft a Checkpoint from the Turns in context"
              : "No Turns in context to draft from yet"
          }
        >
          Draft with AI
        </button>
        <button type="button" className="btn small primary" onClick={saveCheckpoint}>
          Save checkpoint
        </button>
      </div>
    </header>
  );
}
