import { useEffect, useRef } from "react";
import type { Checkpoint } from "@/api/models";
import { shortHash } from "@/lib/format";
import type { Mount } from "../lib/history-base";

interface MountControlProps {
  mount: Mount | null;
  mounted: Checkpoint | null;
  /** The Session's base (a forked Session's): in context whenever nothing is mounted. */
  base: { id: string; checkpoint: Checkpoint | null } | null;
  checkpoints: readonly Checkpoint[];
  headId: string | null;
  /** False until every Turn of the Session is loaded: the boundary is computed from them. */
  ready: boolean;
  onMount: (checkpointId: string) => void;
  onUnmount: () => void;
}

/** Always in the chat header: which Checkpoint the model is working from, and how to change it. */
export function MountControl({
  mount,
  mounted,
  base,
  checkpoints,
  headId,
  ready,
  onMount,
  onUnmount,
}: MountControlProps) {
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

  return (
    <div className="mount-control" data-testid="mount-status">
      {mount ? (
        <span
          className="mount-chip mounted"
          title="The model receives this Checkpoint plus only the Turns after the boundary"
        >
          <span className="mount-dot" aria-hidden="true" />
          {/* On a phone the words in .wide-only are dropped: the hash and message matter. */}
          <span className="mount-label">
            Mounted<span className="wide-only">: Checkpoint</span>
          </span>{" "}
          <code>{mounted ? shortHash(mounted.commit_hash) : "…"}</code>
          {mounted && <span className="mount-message">“{mounted.message}”</span>}
          <span className="muted mount-after">
            · after <span className="wide-only">Turn </span>#{mount.historyBaseSeq}
          </span>
        </span>
      ) : base ? (
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
          title="No Checkpoint mounted: the model receives every Turn of this Session"
        >
          Full history · no Checkpoint mounted
        </span>
      )}
      <details className="menu" ref={menu}>
        <summary
          className={ready && checkpoints.length > 0 ? "btn small" : "btn small disabled"}
          aria-disabled={!ready || checkpoints.length === 0}
        >
          {mount ? "Remount…" : "Mount…"}
        </summary>
        <div className="menu-popover" role="menu" aria-label="Mount a Checkpoint">
          {checkpoints.length === 0 && (
            <p className="muted small">This Space has no Checkpoints yet.</p>
          )}
          {!ready && <p className="muted small">Loading the Session's Turns…</p>}
          {ready &&
            checkpoints.map((checkpoint) => (
              <button
                key={checkpoint.id}
                type="button"
                role="menuitem"
                className={
                  checkpoint.id === mount?.checkpointId ? "menu-item current" : "menu-item"
                }
                onClick={() => choose(checkpoint.id)}
              >
                <code>{shortHash(checkpoint.commit_hash)}</code> {checkpoint.message}
                {checkpoint.id === headId && <span className="badge head">HEAD</span>}
              </button>
            ))}
        </div>
      </details>
      {mount && (
        <button type="button" className="btn small" onClick={onUnmount}>
          Unmount
        </button>
      )}
    </div>
  );
}
