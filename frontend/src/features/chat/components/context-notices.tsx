import type { Checkpoint } from "@/api/models";
import { CheckpointName } from "@/components/checkpoint-name";
import { FailureNotice } from "@/components/feedback";
import { findById } from "@/lib/find-by-id";
import { useChatSession } from "../lib/chat-session";
import type { ContextStart } from "../lib/context-start";
import type { Mount } from "../lib/history-base";
import { useLegacyMount } from "../lib/legacy-mount";

/**
 * Above the composer: what the next message will not get although someone meant it to, and the
 * one action that gives it (a Session based on that Checkpoint). Also, once, right after a save:
 * continue from what was saved.
 */
export function ContextNotices({ start }: { start: ContextStart }) {
  const chat = useChatSession();
  const [legacy, forgetLegacy] = useLegacyMount(chat.sessionId);
  const sent = start.sentWith;
  const continueFrom = (checkpointId: string) => {
    forgetLegacy();
    chat.mount(checkpointId);
  };
  return (
    <>
      {legacy ? (
        <LegacyMountOffer
          mount={legacy}
          checkpoint={findById(chat.checkpoints, legacy.checkpointId)}
          mounting={chat.mounting}
          onContinue={() => continueFrom(legacy.checkpointId)}
          onForget={forgetLegacy}
        />
      ) : (
        sent && (
          <div className="nudge" role="status" data-testid="sent-with-mount">
            <span className="nudge-text">
              The last message here was sent with <Named checkpoint={sent.checkpoint} /> mounted,
              after Turn #{sent.mount.historyBaseSeq} (by an agent, or an earlier version of this
              app). The next one gets {start.base ? "this Session's base and " : ""}every Turn.
            </span>
            <button
              type="button"
              className="link-button"
              disabled={chat.mounting}
              onClick={() => chat.mount(sent.mount.checkpointId)}
            >
              Continue from it in a new Session
            </button>
          </div>
        )
      )}
      {chat.justSaved && (
        <div className="nudge" role="status" data-testid="saved-offer">
          <span className="nudge-text">
            Saved <Named checkpoint={chat.justSaved.checkpoint} />
            {chat.justSaved.line ? ` on line ${chat.justSaved.line}` : ""}. The model here still
            works from{" "}
            {start.base ? (
              <Named checkpoint={start.base.checkpoint} />
            ) : (
              "every Turn, no Checkpoint"
            )}
            ; the next save from this Session starts from what you saved.
          </span>
          <button
            type="button"
            className="link-button"
            disabled={chat.mounting}
            onClick={() => {
              const saved = chat.justSaved?.checkpoint.id;
              chat.dismissSaved();
              if (saved) chat.mount(saved);
            }}
          >
            Continue from it
          </button>
          <button
            type="button"
            className="link-button muted"
            aria-label="Dismiss"
            onClick={chat.dismissSaved}
          >
            ×
          </button>
        </div>
      )}
      <FailureNotice error={chat.mountError} prefix="Could not start the new Session: " />
    </>
  );
}

function Named({ checkpoint }: { checkpoint: Checkpoint | null }) {
  return checkpoint ? (
    <CheckpointName hash={checkpoint.commit_hash} message={checkpoint.message} />
  ) : (
    <>a Checkpoint</>
  );
}

function LegacyMountOffer(props: {
  mount: Mount;
  checkpoint: Checkpoint | null;
  mounting: boolean;
  onContinue: () => void;
  onForget: () => void;
}) {
  return (
    <div className="nudge notice" role="alert" data-testid="legacy-mount">
      <span className="nudge-text">
        This browser had <Named checkpoint={props.checkpoint} /> mounted in this Session, after Turn
        #{props.mount.historyBaseSeq}, and kept it nowhere else. Mounts now live on the server: the
        model gets a Checkpoint when the Session is based on it, the same in every browser. Until
        then, messages here get every Turn.
      </span>
      <button
        type="button"
        className="btn small primary"
        disabled={props.mounting}
        onClick={props.onContinue}
      >
        Continue from it in a new Session
      </button>
      <button type="button" className="btn small" onClick={props.onForget}>
        Forget it
      </button>
    </div>
  );
}
