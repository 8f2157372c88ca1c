import type { ContextPreview, ContextRequest } from "@/api/models";
import { CopyButton } from "@/components/copy-button";
import { FailureNotice, Loading } from "@/components/feedback";
import { plural } from "@/lib/format";
import { useContextPreview } from "../api/preview-context";
import { contextText } from "../lib/context-text";
import { largeContextShare, windowShare } from "../lib/context-window";
import { LeftOutNote } from "./left-out-note";

interface ContextPanelProps {
  request: ContextRequest;
  /** A label for the Checkpoint in context ("abc1234 “Plan”"): the mounted one, else the Session's base. */
  mountedLabel: string | null;
  /** Where the Session's next save starts ("abc1234 “Plan” on line main"), as the server says; null: no save yet. */
  nextSave?: string | null;
}

const sectionNames: Record<string, string> = {
  checkpoint: "Checkpoint (instructions, message)",
  summary: "Summary",
  decisions: "Decisions",
  assumptions: "Assumptions",
  tasks: "Tasks",
  open_questions: "Open questions",
  entities: "Entities",
  artifacts: "Artifacts",
  history: "Turns (history)",
};

/** Exactly what the model will receive with the next message, section by section. */
export function ContextPanel({ request, mountedLabel, nextSave = null }: ContextPanelProps) {
  const preview = useContextPreview(request);
  if (preview.isPending) return <Loading what="the context" />;
  if (preview.isError) return <FailureNotice error={preview.error} />;
  const ctx = preview.data;
  const max = Math.max(1, ...ctx.sections.map((s) => s.tokens));

  return (
    <div className="context-panel" data-testid="context-panel">
      <header className="context-header">
        <p className="context-lead">
          Next message goes to <strong>{ctx.provider}</strong> · {ctx.model} with
          {ctx.tokenizer ? "" : " about"}{" "}
          <strong data-testid="context-total">{ctx.total_tokens.toLocaleString("en")}</strong>
          {ctx.context_window ? (
            <span data-testid="context-window"> of {ctx.context_window.toLocaleString("en")}</span>
          ) : null}{" "}
          tokens of context
          <span className="muted small">
            {" "}
            ({ctx.token_estimate}
            {ctx.context_window ? "" : "; this model's window is unknown"})
          </span>
          .
        </p>
        <WindowBar ctx={ctx} />
        <p className="muted small" data-testid="context-scope">
          {ctx.checkpoint_from === "base"
            ? `Checkpoint ${mountedLabel ?? "…"} (this Session's base) plus every Turn of this Session.`
            : mountedLabel
              ? `Checkpoint ${mountedLabel} plus only the Turns after #${ctx.history_base_seq ?? 0}.`
              : "No Checkpoint mounted: every Turn of this Session."}
        </p>
        <LeftOutNote leftOut={ctx.left_out} />
        {nextSave && (
          <p className="muted small" data-testid="context-next-save">
            The next save from this Session starts from {nextSave}, which it saved last.
          </p>
        )}
        <LargeContextWarning ctx={ctx} />
        <div className="context-actions">
          <button
            type="button"
            className="btn small"
            onClick={() => void preview.refetch()}
            disabled={preview.isFetching}
          >
            {preview.isFetching ? "Refreshing…" : "Refresh"}
          </button>
          <CopyButton text={() => contextText(ctx)} label="Copy context" />
        </div>
      </header>

      <table className="context-sections">
        <caption className="visually-hidden">Sections and token estimates</caption>
        <thead>
          <tr>
            <th scope="col">Section</th>
            <th scope="col">Items</th>
            <th scope="col">Tokens</th>
          </tr>
        </thead>
        <tbody>
          {ctx.sections.map((s) => (
            <tr key={`${s.part}-${s.name}`} data-testid="context-section" data-section={s.name}>
              <th scope="row">
                {sectionNames[s.name] ?? s.name}
                <span className="section-part">{s.part}</span>
              </th>
              <td>{s.items}</td>
              <td className="tokens">
                <span className="token-cell">
                  <span className="token-track" aria-hidden="true">
                    <span className="token-bar" style={{ width: `${(s.tokens / max) * 100}%` }} />
                  </span>
                  {s.tokens.toLocaleString("en")}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <details className="context-block" open={Boolean(ctx.system)}>
        <summary>
          System text {ctx.system ? `(${plural(ctx.system.length, "character")})` : "— none"}
        </summary>
        {ctx.system && <pre className="context-system">{ctx.system}</pre>}
      </details>

      <section className="context-block" aria-label="Messages">
        <h3>
          Messages <span className="count">{ctx.messages.length}</span>
        </h3>
        {ctx.messages.length === 0 && <p className="muted small">No Turns in context yet.</p>}
        <ol className="context-messages">
          {ctx.messages.map((m, i) => (
            <li
              key={m.sequence_number ?? `n${i}`}
              data-testid="context-message"
              data-seq={m.sequence_number ?? ""}
            >
              <span className="context-msg-head">
                {m.sequence_number !== null ? `#${m.sequence_number}` : "—"}{" "}
                {m.role === "user" ? "You" : "Assistant"}
              </span>
              <span className="context-msg-body">{m.content}</span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/** How much of the model's window the context takes, when the window is known. */
function WindowBar({ ctx }: { ctx: ContextPreview }) {
  const share = windowShare(ctx.total_tokens, ctx.context_window);
  if (share === null) return null;
  return (
    <meter
      className="context-window-bar"
      aria-label="Share of the model's context window"
      min={0}
      max={ctx.context_window ?? 1}
      high={(ctx.context_window ?? 1) * 0.75}
      value={Math.min(ctx.total_tokens, ctx.context_window ?? 1)}
      data-testid="context-window-bar"
    >
      {Math.round(share * 100)}%
    </meter>
  );
}

/** Says so when the context takes most of what the model can read. */
function LargeContextWarning({ ctx }: { ctx: ContextPreview }) {
  const share = largeContextShare(ctx.total_tokens, ctx.context_window);
  if (share === null || !ctx.context_window) return null;
  return (
    <p className="context-warning" role="status" data-testid="context-warning">
      <strong>Large context:</strong> about {ctx.total_tokens.toLocaleString("en")} tokens,{" "}
      {Math.round(share * 100)}% of {ctx.model}'s {ctx.context_window.toLocaleString("en")}. Save a
      Checkpoint and mount it to send less: a send that would not fit is refused.
    </p>
  );
}
