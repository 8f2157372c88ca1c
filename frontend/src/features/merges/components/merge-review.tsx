import type { ItemField } from "@/api/v5";
import { entityText, findingLabels, taskText } from "@/features/checkpoints";
import { plural } from "@/lib/format";
import { itemNames } from "../lib/items";
import { type Origin, originOf } from "../lib/origin";
import type { MergeFinding, MergeReview, MergeState } from "../types";

interface MergeReviewViewProps {
  review: MergeReview;
  /** The state that was reviewed: the findings' refs index into its lists. */
  reviewed: MergeState;
  ours: MergeState | null;
  theirs: MergeState | null;
  oursName: string;
  theirsName: string;
  /** The merged state changed since (a choice, or a re-run): this review is of another state. */
  stale: boolean;
}

/**
 * The merge's review: the findings that only combining the two lines produces first, marked, each
 * with the items it points at and the line each came from; then those one line had already.
 */
export function MergeReviewView(props: MergeReviewViewProps) {
  const { review, stale } = props;
  const fromMerge = review.findings.filter((f) => f.from_merge);
  const onALine = review.findings.filter((f) => !f.from_merge);
  return (
    <section className="review-summary merge-review" data-testid="merge-review" aria-label="Review">
      <h3>
        Review of this merge{" "}
        <span className="muted small">
          by {review.reviewed_by.provider} · {review.reviewed_by.model}
        </span>
      </h3>
      {stale && (
        <p className="small warn-text" data-testid="review-stale">
          The merged state changed since this review (a choice, or the merge ran again): review
          again to see the state you would save.
        </p>
      )}
      {review.findings.length === 0 ? (
        <p className="ok">
          No findings: no contradictions, hidden assumptions, resolved questions or disconnected
          entities in the merged state.
        </p>
      ) : (
        <p className="small">
          {plural(review.findings.length, "finding")}
          {fromMerge.length > 0 && `, ${fromMerge.length} from combining the lines`}.
        </p>
      )}
      {fromMerge.length > 0 && (
        <>
          <h4 className="review-group">From combining the lines</h4>
          <p className="muted small">
            Neither line had all of these items: no review of either line could have seen it.
          </p>
          <ul className="finding-list">
            {fromMerge.map((f, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a review's findings never change.
              <FindingItem key={i} finding={f} {...props} />
            ))}
          </ul>
        </>
      )}
      {onALine.length > 0 && (
        <>
          <h4 className="review-group">Already on a line</h4>
          <ul className="finding-list">
            {onALine.map((f, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a review's findings never change.
              <FindingItem key={i} finding={f} {...props} />
            ))}
          </ul>
        </>
      )}
      {review.limits && review.limits.length > 0 && (
        <ul className="muted small review-limits">
          {review.limits.map((limit) => (
            <li key={limit}>{limit}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FindingItem({
  finding,
  reviewed,
  ours,
  theirs,
  oursName,
  theirsName,
}: MergeReviewViewProps & { finding: MergeFinding }) {
  const from: Record<Origin, string> = {
    both: "both lines",
    ours: oursName,
    theirs: theirsName,
    neither: "your resolution",
  };
  return (
    <li
      className={`finding ${finding.kind}${finding.from_merge ? " from-merge" : ""}`}
      data-testid="merge-finding"
      data-from-merge={finding.from_merge ? "true" : "false"}
    >
      {finding.from_merge && <span className="badge merge-badge">from combining the lines</span>}{" "}
      <span className="finding-kind">{findingLabels[finding.kind] ?? finding.kind}</span>{" "}
      {finding.detail}
      {finding.refs.length > 0 && (
        <ul className="finding-refs">
          {finding.refs.map((ref) => {
            const item = (reviewed[ref.field] as readonly unknown[])[ref.index];
            if (item === undefined) return null;
            return (
              <li key={`${ref.field}:${ref.index}`}>
                {itemNames[ref.field]} {ref.index + 1}: “{itemText(ref.field, item)}”{" "}
                <span className="muted">
                  — from {from[originOf(ref.field, item, ours, theirs)]}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}

function itemText(field: ItemField, item: unknown): string {
  if (typeof item === "string") return item;
  if (field === "tasks") return taskText(item as { text: string; done?: boolean });
  return entityText(item as { name: string });
}
