import { useId, useRef } from "react";
import type { Checkpoint } from "@/api/models";
import { FailureNotice, Loading, Spinner } from "@/components/feedback";
import { DiffSections } from "@/features/checkpoints";
import { plural } from "@/lib/format";
import { type MergeSaver, useMergeForm } from "../lib/use-merge-form";
import type { MergePreview } from "../types";
import { ConflictChooser } from "./conflict-chooser";
import { MergeReviewView } from "./merge-review";
import { MergeStatus, MovedNotice } from "./merge-status";

interface MergeFormProps {
  spaceId: string;
  ours: string;
  theirs: string;
  reviewWith: { provider: string | null; model: string | null };
  onClose: () => void;
  onMerged: (checkpoint: Checkpoint) => void;
  /** Saves through this (a proposal's merge) instead of committing the merge here. */
  saver?: MergeSaver;
  /** The words of the button that leaves without saving (a dialog's Cancel, a page's Back). */
  closeLabel?: string;
  /** The preview of these lines the page already has (a proposal's), used instead of asking. */
  knownPreview?: MergePreview | null;
}

/** One merge of theirs into ours: what comes in, each conflict chosen, reviewed, then saved. */
export function MergeForm({ onClose, closeLabel, ...options }: MergeFormProps) {
  const { ours, theirs } = options;
  const reviewRef = useRef<HTMLDivElement>(null);
  const form = useMergeForm({
    ...options,
    onReviewed: () =>
      requestAnimationFrame(() =>
        reviewRef.current?.scrollIntoView?.({ block: "start", behavior: "smooth" }),
      ),
  });
  const whyNotId = useId();

  if (form.loading) return <Loading what="the merge" />;
  const { run, gate } = form;
  if (!run || !gate) return <FailureNotice error={form.loadError} />;

  const { preview: p, choices } = run;
  const conflicts = p.conflicts;
  const { nothing, left, ready, whyNot } = gate;
  const { saving, reviewed } = form;

  return (
    <form
      className="merge-body"
      aria-label="Merge"
      onSubmit={(e) => {
        e.preventDefault();
        void form.save();
      }}
    >
      <MergeStatus
        preview={p}
        ours={ours}
        theirs={theirs}
        base={form.base}
        candidates={p.base_candidates.length}
      />
      {!nothing && (
        <>
          <details className="merge-diff" open data-testid="merge-diff">
            <summary>
              What comes in and what goes on {ours}
              {left > 0 && (
                <span className="muted small"> (conflicts count as ours until chosen)</span>
              )}
            </summary>
            {form.sections === null ? (
              <Loading what={`${ours}'s state`} />
            ) : form.sections.length === 0 ? (
              <p className="muted small">Nothing changes on {ours}: it keeps its state as it is.</p>
            ) : (
              <DiffSections sections={form.sections} testId="merge-changes" />
            )}
          </details>
          {conflicts.length > 0 && (
            <section className="merge-conflicts" aria-label="Conflicts">
              <h3>
                {plural(conflicts.length, "conflict")}{" "}
                <span className="muted small">
                  — both lines changed {conflicts.length === 1 ? "this" : "these"} differently;
                  choose for each
                </span>
              </h3>
              {conflicts.map((conflict, i) => (
                <ConflictChooser
                  // biome-ignore lint/suspicious/noArrayIndexKey: a run's conflicts never change; a re-run replaces them all.
                  key={`${p.ours_commit_id}:${i}`}
                  conflict={conflict}
                  choice={choices[i] ?? null}
                  onChoice={(choice) => form.choose(run, i, choice)}
                  oursName={ours}
                  theirsName={theirs}
                />
              ))}
            </section>
          )}
          <div className="merge-save">
            <label className="field grow">
              <span>Message</span>
              <input
                aria-label="Merge message"
                value={form.message}
                onChange={(e) => form.setMessage(e.target.value)}
              />
            </label>
            {form.asksAuthor && (
              <label className="field narrow">
                <span>Your name</span>
                <input
                  aria-label="Your name"
                  placeholder="anonymous"
                  value={form.author}
                  onChange={(e) => form.setAuthor(e.target.value)}
                />
              </label>
            )}
          </div>
          <div ref={reviewRef} className="merge-review-slot">
            {form.reviewing && (
              <p className="muted" role="status">
                <Spinner label="Reviewing" /> Reviewing the merged state…
              </p>
            )}
            <FailureNotice error={form.reviewError} prefix="Review failed: " />
            {reviewed && (
              <MergeReviewView
                review={reviewed.review}
                reviewed={reviewed.state}
                ours={form.oursState}
                theirs={form.theirsState}
                oursName={ours}
                theirsName={theirs}
                stale={form.reviewStale}
              />
            )}
          </div>
        </>
      )}
      <div className="dialog-footer sticky">
        {form.moved && (
          <MovedNotice moved={form.moved} ours={ours} theirs={theirs} head={form.oursHead} />
        )}
        <FailureNotice error={form.rerunError} prefix="Running the merge again failed: " />
        <FailureNotice error={form.commitError} />
        {whyNot && (
          <p id={whyNotId} className="muted small merge-left" aria-live="polite">
            {whyNot}
          </p>
        )}
        <div className="footer-buttons">
          <button type="button" className="btn" onClick={onClose}>
            {closeLabel ?? (nothing ? "Close" : "Cancel")}
          </button>
          {!nothing && (
            <>
              <button
                type="button"
                className="btn"
                onClick={form.runReview}
                disabled={!ready || form.reviewing || saving}
                title={ready ? "Review the merged state before saving it" : undefined}
                aria-describedby={whyNot ? whyNotId : undefined}
              >
                {form.reviewing ? "Reviewing…" : reviewed ? "Review again" : "Review this merge"}
              </button>
              <button
                type="submit"
                className="btn primary"
                disabled={!ready || saving}
                aria-describedby={whyNot ? whyNotId : undefined}
              >
                {form.committing ? "Saving…" : form.rerunning ? "Running again…" : form.saveLabel}
              </button>
            </>
          )}
        </div>
      </div>
    </form>
  );
}
