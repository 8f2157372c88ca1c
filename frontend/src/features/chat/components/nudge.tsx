import type { Suggestion } from "@/api/models";

interface NudgeProps {
  suggestion: Suggestion;
  onSave: () => void;
  onDraft: () => void;
  onDismiss: () => void;
}

/** The subtle "consider a Checkpoint" hint after a send that recommends it. Never an action by itself. */
export function Nudge({ suggestion, onSave, onDraft, onDismiss }: NudgeProps) {
  return (
    <div className="nudge" role="status" data-testid="nudge">
      <span className="nudge-icon" aria-hidden="true">
        ◆
      </span>
      <span className="nudge-text">
        Good moment for a Checkpoint{suggestion.reason ? ` — ${suggestion.reason}` : "."}
      </span>
      <button type="button" className="link-button" onClick={onDraft}>
        Draft with AI
      </button>
      <button type="button" className="link-button" onClick={onSave}>
        Save checkpoint
      </button>
      <button
        type="button"
        className="link-button muted"
        aria-label="Dismiss the hint"
        onClick={onDismiss}
      >
        ×
      </button>
    </div>
  );
}
