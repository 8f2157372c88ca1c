import { type ReactNode, useMemo } from "react";
import type { Checkpoint } from "@/api/models";
import type { ItemField } from "@/api/v5";
import { AuthorBadge } from "@/components/author-badge";
import { FailureNotice, Spinner } from "@/components/feedback";
import { Markdown } from "@/components/markdown";
import { formatDateTime, shortHash } from "@/lib/format";
import { useReviewCheckpoint, useStoredReview } from "../api/review-checkpoint";
import { authorshipOf, draftedByOf, sourceOf } from "../lib/metadata";
import { itemKey, placeFindings } from "../lib/review";
import { ArtifactView } from "./artifact-view";
import { Section } from "./detail-section";
import { MetadataView } from "./metadata-view";
import { FindingNote, ReviewSummary } from "./review-notes";
import { TaskView } from "./task-view";

interface CheckpointDetailProps {
  checkpoint: Checkpoint;
  /** The parent, when it is known (for its name). */
  parent?: Checkpoint | null;
  /** A merge's second parent (the line merged in), when it is known. */
  mergeParent?: Checkpoint | null;
  headId: string | null;
  /** The Checkpoint the open Session is based on (what its model works from). */
  mountedId: string | null;
  /** Mount it: continue the open Session in a new one based on it (a fork); null when no Session is open. */
  onMount: (() => void) | null;
  mounting?: boolean;
  onCompare: () => void;
  /** A new Checkpoint on a line with this Checkpoint's state. */
  onRestore: () => void;
  onSelect: (id: string) => void;
  reviewWith: { provider: string | null; model: string | null };
}

/** Every field and artifact of one Checkpoint, with the on-demand review beside its items. */
export function CheckpointDetail({
  checkpoint: c,
  parent,
  mergeParent,
  headId,
  mountedId,
  onMount,
  mounting = false,
  onCompare,
  onRestore,
  onSelect,
  reviewWith,
}: CheckpointDetailProps) {
  const stored = useStoredReview(c.id);
  const review = useReviewCheckpoint();
  const findings = stored.data?.findings ?? null;
  const placed = useMemo(
    () =>
      placeFindings(findings ?? [], {
        decisions: c.decisions.length,
        assumptions: c.assumptions.length,
        tasks: c.tasks.length,
        open_questions: c.open_questions.length,
        entities: c.entities.length,
      }),
    [findings, c],
  );
  const { author, claimed } = authorshipOf(c);
  const draftedBy = draftedByOf(c);
  const source = sourceOf(c);

  const runReview = () =>
    review.mutate({
      checkpointId: c.id,
      body: reviewWith.provider ? { provider: reviewWith.provider, model: reviewWith.model } : {},
    });

  const items = (field: ItemField, values: readonly ReactNode[]) =>
    values.map((value, index) => {
      const here = placed.byItem.get(itemKey(field, index)) ?? [];
      return (
        // biome-ignore lint/suspicious/noArrayIndexKey: Checkpoints are immutable; findings refer to items by index.
        <li key={index} className={here.length > 0 ? "item flagged" : "item"}>
          <div className="item-text">{value}</div>
          {here.map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static list.
            <FindingNote key={i} finding={f} />
          ))}
        </li>
      );
    });

  return (
    <article className="checkpoint-detail" aria-label={`Checkpoint ${shortHash(c.commit_hash)}`}>
      <header className="detail-header">
        <h2>
          {c.id === headId && <span className="badge head">HEAD</span>}
          {c.id === mountedId && <span className="badge mounted">mounted</span>} {c.message}
        </h2>
        <dl className="detail-facts">
          <dt>Checkpoint</dt>
          <dd>
            <code title={c.commit_hash}>{shortHash(c.commit_hash)}</code>
          </dd>
          <dt>Saved</dt>
          <dd>{formatDateTime(c.created_at)}</dd>
          <dt>Parent</dt>
          <dd>
            {c.parent_commit_id ? (
              <button
                type="button"
                className="link-button"
                onClick={() => onSelect(c.parent_commit_id ?? "")}
              >
                {parent ? (
                  <>
                    <code>{shortHash(parent.commit_hash)}</code> {parent.message}
                  </>
                ) : (
                  "previous Checkpoint"
                )}
              </button>
            ) : (
              "none (first Checkpoint)"
            )}
          </dd>
          {c.merge_parent_id && (
            <>
              <dt>Merged in</dt>
              <dd data-testid="merge-parent">
                <button
                  type="button"
                  className="link-button"
                  onClick={() => onSelect(c.merge_parent_id ?? "")}
                  title="The other parent of this merge: the HEAD of the line merged in"
                >
                  {mergeParent ? (
                    <>
                      <code>{shortHash(mergeParent.commit_hash)}</code> {mergeParent.message}
                    </>
                  ) : (
                    "another line's Checkpoint"
                  )}
                </button>
              </dd>
            </>
          )}
          {author && (
            <>
              <dt>By</dt>
              <dd>
                <AuthorBadge author={author} claimed={claimed} />
              </dd>
            </>
          )}
          {draftedBy && (
            <>
              <dt>Drafted by</dt>
              <dd>
                {draftedBy.provider} · {draftedBy.model}
                {source && ` from Turns ${source.from_seq}–${source.to_seq}`}
              </dd>
            </>
          )}
          {!draftedBy && source && (
            <>
              <dt>From</dt>
              <dd>
                Turns {source.from_seq}–{source.to_seq}
              </dd>
            </>
          )}
        </dl>
        <div className="detail-actions">
          {onMount && (
            <button
              type="button"
              className="btn small primary"
              onClick={onMount}
              disabled={c.id === mountedId || mounting}
              title="Continue this Session in a new one based on this Checkpoint; this one stays as it is"
            >
              {c.id === mountedId
                ? "This Session's base"
                : mounting
                  ? "Starting…"
                  : "Mount in a new Session"}
            </button>
          )}
          <button
            type="button"
            className="btn small"
            onClick={runReview}
            disabled={review.isPending}
          >
            {review.isPending ? "Reviewing…" : findings ? "Review again" : "Review"}
          </button>
          <button type="button" className="btn small" onClick={onCompare}>
            Compare…
          </button>
          <button
            type="button"
            className="btn small"
            onClick={onRestore}
            title="Save a new Checkpoint with this state on top of a line's HEAD"
          >
            Restore this state…
          </button>
        </div>
      </header>

      {review.isPending && (
        <p className="muted" role="status">
          <Spinner label="Reviewing" /> Reviewing this Checkpoint's reasoning…
        </p>
      )}
      <FailureNotice error={review.error} prefix="Review failed: " />
      {stored.data && <ReviewSummary review={stored.data} unplaced={placed.unplaced} />}

      <Section title="Summary" empty={!c.summary}>
        <Markdown source={c.summary} />
      </Section>
      <Section title="Decisions" count={c.decisions.length}>
        <ol className="items">{items("decisions", c.decisions)}</ol>
      </Section>
      <Section title="Assumptions" count={c.assumptions.length}>
        <ol className="items">{items("assumptions", c.assumptions)}</ol>
      </Section>
      <Section title="Tasks" count={c.tasks.length}>
        {/* A list of checkboxes, not numbered: "1. ☐" showed two markers for one task. */}
        <ul className="items tasks">
          {items(
            "tasks",
            c.tasks.map((t, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: immutable list.
              <TaskView key={i} task={t} />
            )),
          )}
        </ul>
      </Section>
      <Section title="Open questions" count={c.open_questions.length}>
        <ol className="items">{items("open_questions", c.open_questions)}</ol>
      </Section>
      <Section title="Entities" count={c.entities.length}>
        <ol className="items">
          {items(
            "entities",
            c.entities.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: immutable list.
              <span key={i}>
                <strong>{e.name}</strong>
                {e.kind && <span className="badge muted-badge">{e.kind}</span>}
                {e.description && <span className="muted"> — {e.description}</span>}
              </span>
            )),
          )}
        </ol>
      </Section>
      <Section title="Artifacts" count={c.artifacts.length}>
        {c.artifacts.map((a) => (
          <ArtifactView key={a.name} artifact={a} />
        ))}
      </Section>
      {Object.keys(c.metadata).length > 0 && (
        <Section title="Metadata">
          <MetadataView metadata={c.metadata} />
        </Section>
      )}
      <p className="muted small hash-line">
        Hash <code>{c.commit_hash}</code>
      </p>
    </article>
  );
}
