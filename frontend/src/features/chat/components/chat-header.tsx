import { DeleteSessionButton, SessionLineage, SessionTitle } from "@/features/sessions";
import { useChatSession } from "../lib/chat-session";
import type { ContextStart } from "../lib/context-start";
import { MountControl } from "./mount-control";

/** The Session's title and lineage, what the model works from, and the Session's actions. */
export function ChatHeader({ start }: { start: ContextStart }) {
  const chat = useChatSession();
  const { session, turns, checkpoints, headId, saveCheckpoint, draftCheckpoint } = chat;
  // Draft with AI works from the Session's Turns (never the base's state: invariant 6).
  const draftable = (turns?.length ?? 0) > 0;
  return (
    <header className="chat-header">
      <div className="chat-title">
        <SessionTitle session={session} />
        <SessionLineage session={session} />
      </div>
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
      {/* The mount gets the header's whole width; deleting the Session sits at its end. */}
      <div className="chat-context-row">
        <MountControl
          base={start.base}
          checkpoints={checkpoints}
          headId={headId}
          onMount={chat.mount}
          mounting={chat.mounting}
        />
        <DeleteSessionButton session={session} onDeleted={chat.onDeleted} />
      </div>
    </header>
  );
}
