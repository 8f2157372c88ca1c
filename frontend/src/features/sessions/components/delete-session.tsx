import { useState } from "react";
import type { Session } from "@/api/models";
import { ConfirmDialog } from "@/components/dialog";
import { errorMessage } from "@/components/feedback";
import { plural } from "@/lib/format";
import { useDeleteSession } from "../api/delete-session";
import { sessionTitle } from "../lib/title";

/** Deletes a Session after the person confirms: its Turns go with it, no Checkpoint does. */
export function DeleteSessionButton({
  session,
  onDeleted,
}: {
  session: Session;
  onDeleted: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const remove = useDeleteSession();
  return (
    <>
      <button
        type="button"
        className="btn small ghost"
        onClick={() => setAsking(true)}
        title="Delete this Session and its Turns"
      >
        Delete…
      </button>
      <ConfirmDialog
        open={asking}
        title="Delete this Session?"
        body={
          <p>
            <b>{sessionTitle(session)}</b> and its {plural(session.turn_count, "Turn")} go for good.
            Every Checkpoint stays, those saved from it included, and the Sessions continued from it
            keep working.
          </p>
        }
        confirmLabel="Delete Session"
        danger
        busy={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        onConfirm={() =>
          remove.mutate(session, {
            onSuccess: () => {
              setAsking(false);
              onDeleted();
            },
          })
        }
        onCancel={() => {
          remove.reset();
          setAsking(false);
        }}
      />
    </>
  );
}
