import { useState } from "react";
import { ConfirmDialog } from "@/components/dialog";
import { errorMessage } from "@/components/feedback";
import { useCloseProposal } from "../api/close-proposal";
import type { Proposal } from "../types";

/** Close a proposal without merging it, with a reason its agent can read. */
export function CloseProposal({ spaceId, proposal }: { spaceId: string; proposal: Proposal }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const close = useCloseProposal(spaceId, proposal.number);
  return (
    <>
      <button type="button" className="btn danger-outline" onClick={() => setOpen(true)}>
        Close proposal…
      </button>
      <ConfirmDialog
        open={open}
        title={`Close proposal #${proposal.number}?`}
        body={
          <>
            <p>
              Nothing is merged; the line <b>{proposal.from ?? proposal.from_name}</b> and its
              Checkpoints stay as they are.
            </p>
            <label className="field">
              <span>Reason (optional, shown to the agent)</span>
              <textarea
                rows={3}
                value={reason}
                maxLength={2000}
                onChange={(e) => setReason(e.target.value)}
              />
            </label>
          </>
        }
        confirmLabel="Close proposal"
        danger
        busy={close.isPending}
        error={close.error ? errorMessage(close.error) : null}
        onConfirm={() =>
          close.mutate(reason.trim() ? { reason: reason.trim() } : {}, {
            onSuccess: () => setOpen(false),
          })
        }
        onCancel={() => {
          close.reset();
          setOpen(false);
        }}
      />
    </>
  );
}
