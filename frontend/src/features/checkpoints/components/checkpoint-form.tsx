import type { FormEvent } from "react";
import { CheckpointName } from "@/components/checkpoint-name";
import { Dialog } from "@/components/dialog";
import { FailureNotice, Spinner } from "@/components/feedback";
import {
  type CheckpointFormOptions,
  type ParentReason,
  useCheckpointForm,
} from "../lib/use-checkpoint-form";
import { FormFields } from "./form-fields";
import { ParentDiff } from "./parent-diff";
import { ProposalList } from "./proposal-list";
import { SaveWhere } from "./save-where";

interface CheckpointFormDialogProps extends CheckpointFormOptions {
  open: boolean;
  onClose: () => void;
}

export function CheckpointFormDialog(props: CheckpointFormDialogProps) {
  // The form exists only while the dialog is open, so each opening starts a fresh one and no
  // stale draft survives. (A key bumped by an effect once did the same a render late: the form
  // mounted twice per opening, and in draft mode asked the model twice.)
  return (
    <Dialog open={props.open} title="Save checkpoint" onClose={props.onClose} wide>
      {props.open && <CheckpointForm {...props} />}
    </Dialog>
  );
}

const reasonText: Record<ParentReason, string> = {
  "last-saved": "what this Session saved last,",
  base: "this Session's base",
  head: "HEAD",
};

function CheckpointForm({ onClose, ...options }: CheckpointFormDialogProps) {
  const { parent } = options;
  const form = useCheckpointForm(options);
  const { state, line, oldState, drafting, saving } = form;
  const { values, errors, provenance, conflict } = state;
  return (
    <form
      className="checkpoint-form"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void form.save();
      }}
      aria-label="Checkpoint form"
      aria-busy={drafting}
    >
      <div className="form-toolbar">
        <p className="muted small" data-testid="form-parent">
          {parent ? (
            <>
              Starts from {reasonText[options.parentReason]}{" "}
              <CheckpointName hash={parent.commit_hash} message={parent.message} /> with all its
              state; nothing of it is dropped unless you remove it.
              {!oldState && line && <> Saves on line {line.name}.</>}
            </>
          ) : (
            "The first Checkpoint of this Space."
          )}
        </p>
        <div className="toolbar-actions">
          <button
            type="button"
            className="btn small"
            onClick={form.runDraft}
            disabled={!options.draftScope || drafting}
          >
            {drafting ? "Drafting…" : "Draft with AI"}
          </button>
        </div>
      </div>
      {oldState && parent && line && (
        <SaveWhere
          parent={parent}
          line={line}
          lineHead={form.lineHead}
          where={state.where}
          onWhere={form.chooseWhere}
          ownLine={form.ownLine}
          lineName={state.lineName}
          onLineName={form.setLineName}
          nameError={errors.lineName ?? null}
        />
      )}
      {drafting && (
        <div className="drafting" role="status">
          <Spinner label="Drafting" /> The model is drafting from the Turns in the current context…
        </div>
      )}
      <FailureNotice error={form.draftError} prefix="Draft failed: " />
      {provenance && (
        <p className="provenance" data-testid="draft-provenance">
          Drafted by {provenance.draftedBy.provider} · {provenance.draftedBy.model} from Turns{" "}
          {provenance.source.from_seq}–{provenance.source.to_seq}. Its suggestions are below: accept
          or reject each; the form changes only when you accept.
          {state.acceptedDraft ? " The Checkpoint will record this draft as a source." : ""}
        </p>
      )}
      <ProposalList proposals={state.proposals} onAccept={form.accept} onReject={form.reject} />
      <FormFields values={values} errors={errors} disabled={drafting} onChange={form.edit} />
      <ParentDiff parent={state.base} parentValues={form.baseValues} values={values} />
      <div className="dialog-footer sticky">
        {conflict && (
          <div className="conflict" role="alert" data-testid="conflict">
            <strong>HEAD moved while you were editing.</strong> Someone (a person or an agent) saved
            another Checkpoint on this line, so nothing was written. Your edits are still here.
            {conflict.head && (
              <span>
                {" "}
                HEAD is now{" "}
                <CheckpointName hash={conflict.head.commit_hash} message={conflict.head.message} />.
              </span>
            )}
            <div className="conflict-actions">
              <button
                type="button"
                className="btn small primary"
                onClick={form.saveOnNewHead}
                disabled={saving}
              >
                Save on top of the new HEAD
              </button>
            </div>
          </div>
        )}
        <FailureNotice error={form.failure} />
        <div className="footer-buttons">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={saving || drafting}>
            {saving ? "Saving…" : form.newLine ? "Save as a new line" : "Save checkpoint"}
          </button>
        </div>
      </div>
    </form>
  );
}
