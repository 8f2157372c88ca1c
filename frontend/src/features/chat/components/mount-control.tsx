import { useEffect, useRef } from "react";
import type { Checkpoint } from "@/api/models";
import { shortHash } from "@/lib/format";

interface MountControlProps {
  /** The Session's base: in the context of every message sent in it. */
  base: { id: string; checkpoint: Checkpoint | null } | null;
  checkpoints: readonly Checkpoint[];
  headId: string | null;
  /** Mounts a Checkpoint: a new Session based on it, continuing this one. */
  onMount: (checkpointId: string) => void;
  mounting: boolean;
}

/**
 * Always in the chat header: which Checkpoint the model is working from, and how to change it.
 * The answer is the server's (the Session's base), so every browser shows the same; mounting
 * another Checkpoint continues this Session in a new one based on it, and leaves this one as it is.
 */
export function MountControl({ base, checkpoints, headId, onMount, mounting }: MountControlProps) {
  const menu = useRef<HTMLDetailsElement>(null);
  // Close the menu on a click elsewhere or Escape, as a menu should.
  useEffect(() => {
    const close = (event: Event) => {
      const details = menu.current;
      if (!details?.open) return;
      if (
        event instanceof KeyboardEvent
          ? event.key === "Escape"
          : !details.contains(event.target as Node)
      ) {
        details.open = false;
      }
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  const choose = (id: string) => {
    if (menu.current) menu.current.open = false;
    onMount(id);
  };
  const enabled = checkpoints.length > 0 && !mounting;

  return (
    <div className="mount-control" data-testid="mount-status">
      {base ? (
        <span
          className="mount-chip mounted"
          title="This Session is based on a Checkpoint: the model receives it plus every Turn of this Session"
        >
          <span className="mount-dot" aria-hidden="true" />
          <span className="mount-label">
            Based on<span className="wide-only"> Checkpoint</span>
          </span>{" "}
          <code>{base.checkpoint ? shortHash(base.checkpoint.commit_hash) : "…"}</code>
          {base.checkpoint && <span className="mount-message">“{base.checkpoint.message}”</span>}
          <span className="muted mount-after">
            · every Turn<span className="wide-only"> of this Session</span>
          </span>
        </span>
      ) : (
        <span
          className="mount-chip"
          title="No Checkpoint: the model receives every Turn of this Session"
        >
          Full history · no Checkpoint mounted
        </span>
      )}
      <details className="menu" ref={menu}>
        <summary className={enabled ? "btn small" : "btn small disabled"} aria-disabled={!enabled}>
          {mounting ? "Mounting…" : "Mount…"}
        </summary>
        <div className="menu-popover" role="menu" aria-label="Mount a Checkpoint">
          {checkpoints.length === 0 ? (
            <p className="muted small">This Space has no Checkpoints yet.</p>
          ) : (
            <p className="muted small menu-note">
              Continues this Session in a new one based on the Checkpoint; this one stays as it is.
            </p>
          )}
          {enabled &&
            checkpoints.map((checkpoint) => (
              <button
                key={checkpoint.id}
                type="button"
                role="menuitem"
                className={checkpoint.id === base?.id ? "menu-item current" : "menu-item"}
                onClick={() => choose(checkpoint.id)}
              >
                <code>{shortHash(checkpoint.commit_hash)}</code> {checkpoint.message}
                {checkpoint.id === headId && <span className="badge head">HEAD</span>}
              </button>
            ))}
        </div>
      </details>
    </div>
  );
}
