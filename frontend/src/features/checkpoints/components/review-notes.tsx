import type { Finding, ItemField, Review } from "@/api/v5";
import { findingCounts, findingLabels } from "../lib/review";

const refLabel: Record<ItemField, string> = {
  decisions: "decision",
  assumptions: "assumption",
  tasks: "task",
  open_questions: "open question",
  entities: "entity",
};

/** One finding. Shown once: next to its first item, naming every item it points at when more. */
export function FindingNote({ finding }: { finding: Finding }) {
  return (
    <div className={`finding ${finding.kind}`} data-testid="finding">
      <span className="finding-kind">{findingLabels[finding.kind] ?? finding.kind}</span>{" "}
      {finding.detail}
      {finding.refs.length > 1 && (
        <span className="muted small">
          {" "}
          ({finding.refs.map((r) => `${refLabel[r.field]} ${r.index + 1}`).join(", ")})
        </span>
      )}
    </div>
  );
}

/** Who reviewed, how many findings of which kind, and the findings that belong to no item. */
export function ReviewSummary({ review, unplaced }: { review: Review; unplaced: Finding[] }) {
  const { findings } = review;
  return (
    <section className="review-summary" data-testid="review-summary" aria-label="Review">
      <h3>
        Review{" "}
        <span className="muted small">
          by {review.reviewed_by.provider} · {review.reviewed_by.model}
        </span>
      </h3>
      {findings.length === 0 ? (
        <p className="ok">
          No findings: no contradictions, hidden assumptions, resolved questions or disconnected
          entities.
        </p>
      ) : (
        <p className="small">
          {findingCounts(findings)}
          {unplaced.length < findings.length && (
            <span className="muted"> — shown next to the items they point at.</span>
          )}
        </p>
      )}
      {unplaced.length > 0 && (
        <ul className="finding-list">
          {unplaced.map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static list.
            <li key={i}>
              <FindingNote finding={f} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
