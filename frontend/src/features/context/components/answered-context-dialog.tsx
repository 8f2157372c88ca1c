import type { AnsweredContext } from "@/api/models";
import { CopyButton } from "@/components/copy-button";
import { Dialog } from "@/components/dialog";
import { FailureNotice, Loading } from "@/components/feedback";
import { useAnsweredContext } from "../api/get-answered-context";
import { contextText } from "../lib/context-text";
import { LeftOutNote } from "./left-out-note";

interface AnsweredContextDialogProps {
  sessionId: string;
  /** The reply whose context to show, or null when the dialog is closed. */
  sequenceNumber: number | null;
  onClose: () => void;
}

/** "What the model saw": the context a reply was answered from, and whether its receipt holds. */
export function AnsweredContextDialog({
  sessionId,
  sequenceNumber,
  onClose,
}: AnsweredContextDialogProps) {
  const answered = useAnsweredContext(sessionId, sequenceNumber);
  return (
    <Dialog
      open={sequenceNumber !== null}
      title={`What the model saw for reply #${sequenceNumber ?? ""}`}
      onClose={onClose}
      wide
    >
      {answered.isPending ? (
        <Loading what="the context" />
      ) : answered.isError ? (
        <FailureNotice error={answered.error} />
      ) : (
        <AnsweredContextView ctx={answered.data} />
      )}
    </Dialog>
  );
}

function Receipt({ ctx }: { ctx: AnsweredContext }) {
  const short = ctx.context_sha256.slice(0, 12);
  if (ctx.matches === true) {
    return (
      <p className="receipt ok" data-testid="receipt">
        ✓ Rebuilt exactly: its SHA-256 <code title={ctx.context_sha256}>{short}…</code> is the
        receipt this reply recorded when it was answered.
      </p>
    );
  }
  if (ctx.matches === false) {
    return (
      <p className="receipt mismatch" role="alert" data-testid="receipt">
        ✗ The rebuilt context hashes to <code>{short}…</code>, not to the receipt this reply
        recorded (<code>{ctx.recorded_sha256?.slice(0, 12)}…</code>): something it was built from
        has changed.
      </p>
    );
  }
  return (
    <p className="receipt muted" data-testid="receipt">
      This reply has no receipt to compare (stored before receipts, or imported); rebuilt from its
      Checkpoint and Turns: <code>{short}…</code>.
    </p>
  );
}

function AnsweredContextView({ ctx }: { ctx: AnsweredContext }) {
  return (
    <div className="answered-context" data-testid="answered-context">
      <p>
        Sent to <strong>{ctx.provider ?? "unknown"}</strong> · {ctx.model ?? "unknown model"}:{" "}
        {ctx.checkpoint_id
          ? ctx.history_base_seq !== null
            ? `a Checkpoint, then the Turns after #${ctx.history_base_seq}.`
            : "this Session's base Checkpoint, then its Turns."
          : "no Checkpoint, every Turn before it."}
      </p>
      <LeftOutNote leftOut={ctx.left_out} />
      <Receipt ctx={ctx} />
      <div className="context-actions">
        <CopyButton text={() => contextText(ctx)} label="Copy this context" />
      </div>
      {ctx.system && (
        <details className="answered-system">
          <summary>System text (the Checkpoint)</summary>
          <pre className="context-text">{ctx.system}</pre>
        </details>
      )}
      <ol className="answered-messages">
        {ctx.messages.map((message) => (
          <li key={message.sequence_number ?? "new"} className={`answered-message ${message.role}`}>
            <span className="turn-meta">
              #{message.sequence_number} {message.role === "user" ? "You" : "Assistant"}
            </span>
            <pre className="context-text">{message.content}</pre>
          </li>
        ))}
      </ol>
    </div>
  );
}
