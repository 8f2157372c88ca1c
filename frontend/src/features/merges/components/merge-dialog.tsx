import { useId, useMemo, useRef, useState } from "react";
import { ApiError } from "@/api/client";
import type { Checkpoint, Line } from "@/api/models";
import { Dialog } from "@/components/dialog";
import { FailureNotice, Loading, Spinner } from "@/components/feedback";
import {
  DiffSections,
  inheritedMetadata,
  orderLines,
  useCheckpoint,
  useCommitCheckpoint,
} from "@/features/checkpoints";
import { plural } from "@/lib/format";
import { readJson, writeJson } from "@/lib/storage";
import { useMergePreview } from "../api/preview-merge";
import { useReviewMerge } from "../api/review-merge";
import { fullState, stableText } from "../lib/items";
import { allChosen, carryChoices, resolveMerge } from "../lib/resolve";
import { diffStates } from "../lib/state-diff";
import type { Choice, MergePreview, MergeReview, MergeState } from "../types";
import { ConflictChooser } from "./conflict-chooser";
import { MergeReviewView } from "./merge-review";
import { MergeStatus, type Moved, MovedNotice } from "./merge-status";

/** The Save form's key for the person's name: one name for every Checkpoint they save. */
const AUTHOR_KEY = "smriti.author";

interface MergeDialogProps {
  spaceId: string;
  lines: readonly Line[];
  /** The line to merge in; null = closed. */
  theirs: string | null;
  /** The provider and model a review uses (the open Session's), else the server's default. */
  reviewWith: { provider: string | null; model: string | null };
  onClose: () => void;
  onMerged: (checkpoint: Checkpoint) => void;
}

/** "Merge line X into Y": what comes in and goes, each conflict chosen, reviewed, then saved. */
export function MergeDialog(props: MergeDialogProps) {
  return (
    <Dialog open={props.theirs !== null} title="Merge lines" onClose={props.onClose} wide>
      {props.theirs !== null && <MergeSides key={props.theirs} {...props} theirs={props.theirs} />}
    </Dialog>
  );
}

/** Into the default line, unless that is the line merged in: then into the next line. */
function defaultInto(lines: readonly Line[], theirs: string): string {
  const candidates = orderLines(lines).filter((l) => l.name !== theirs && l.head_commit_id);
  return candidates[0]?.name ?? "";
}

function MergeSides(props: MergeDialogProps & { theirs: string }) {
  const { lines } = props;
  const [theirs, setTheirs] = useState(props.theirs);
  const [ours, setOurs] = useState(() => defaultInto(lines, props.theirs));
  const withHead = orderLines(lines).filter((l) => l.head_commit_id);
  const pick = (side: "ours" | "theirs", name: string) => {
    // Picking the other side's line swaps the two: a line is never merged into itself.
    if (side === "ours") {
      if (name === theirs) setTheirs(ours);
      setOurs(name);
    } else {
      if (name === ours) setOurs(theirs);
      setTheirs(name);
    }
  };
  const option = (l: Line) => (
    <option key={l.name} value={l.name}>
      {l.name}
      {l.is_default ? " (default)" : ""}
    </option>
  );
  return (
    <div className="merge-form">
      <div className="merge-pickers">
        <label className="field">
          <span>Merge line</span>
          <select
            aria-label="Merge from line"
            value={theirs}
            onChange={(e) => pick("theirs", e.target.value)}
          >
            {withHead.map(option)}
          </select>
        </label>
        <span className="merge-into" aria-hidden="true">
          →
        </span>
        <label className="field">
          <span>into</span>
          <select
            aria-label="Merge into line"
            value={ours}
            onChange={(e) => pick("ours", e.target.value)}
          >
            {ours === "" && <option value="">Choose a line</option>}
            {withHead.map(option)}
          </select>
        </label>
      </div>
      {ours === "" ? (
        <p className="muted">There is no other line with a Checkpoint to merge into.</p>
      ) : (
        <MergeForm key={`${ours}\n${theirs}`} {...props} ours={ours} theirs={theirs} />
      )}
    </div>
  );
}

interface Run {
  preview: MergePreview;
  choices: (Choice | null)[];
}

const freshRun = (preview: MergePreview): Run => ({
  preview,
  choices: preview.conflicts.map(() => null),
});

function MergeForm({
  spaceId,
  ours,
  theirs,
  reviewWith,
  onClose,
  onMerged,
}: MergeDialogProps & { ours: string; theirs: string }) {
  const preview = useMergePreview(spaceId, ours, theirs);
  const [run, setRun] = useState<Run | null>(null);
  const first = useMemo(() => (preview.data ? freshRun(preview.data) : null), [preview.data]);
  // The person's run: the first preview until they choose, or the merge run again after a 409.
  const current = run ?? first;
  const [message, setMessage] = useState(`Merge ${theirs} into ${ours}`);
  const [author, setAuthor] = useState(() => readJson<string>(AUTHOR_KEY) ?? "");
  const [moved, setMoved] = useState<Moved | null>(null);
  const [rerunning, setRerunning] = useState(false);
  const [rerunError, setRerunError] = useState<unknown>(null);
  const [reviewed, setReviewed] = useState<{ review: MergeReview; state: MergeState } | null>(null);
  const oursHead = useCheckpoint(current?.preview.ours_commit_id ?? null);
  const theirsHead = useCheckpoint(current?.preview.theirs_commit_id ?? null);
  const base = useCheckpoint(current?.preview.base_commit_id ?? null);
  const commit = useCommitCheckpoint();
  const review = useReviewMerge(spaceId);
  const reviewRef = useRef<HTMLDivElement>(null);
  const whyNotId = useId();

  const resolved = useMemo(
    () => (current ? resolveMerge(current.preview, current.choices, { theirsName: theirs }) : null),
    [current, theirs],
  );
  const oursState = useMemo(
    () => (oursHead.data ? fullState(oursHead.data) : null),
    [oursHead.data],
  );
  const theirsState = useMemo(
    () => (theirsHead.data ? fullState(theirsHead.data) : null),
    [theirsHead.data],
  );
  const sections = useMemo(
    () => (oursState && resolved ? diffStates(oursState, resolved) : null),
    [oursState, resolved],
  );

  if (preview.isPending) return <Loading what="the merge" />;
  if (!current || !resolved) return <FailureNotice error={preview.error} />;

  const { preview: p, choices } = current;
  const conflicts = p.conflicts;
  const left = conflicts.filter((_, i) => choices[i] == null).length;
  const nothing = p.relation === "up_to_date";
  const ready = !nothing && allChosen(conflicts, choices) && message.trim() !== "";
  // Why Save (and Review) are disabled, said next to them and as their description: a conflict is
  // never saved as ours because nobody chose (docs/merge.md), and the person should see that.
  const whyNot =
    nothing || ready
      ? null
      : left > 0
        ? `Choose for every conflict to save: ${left} left.`
        : message.trim() === ""
          ? "Write a message for the merge to save."
          : null;
  const saving = commit.isPending || rerunning;

  const choose = (index: number, choice: Choice) =>
    setRun({ preview: p, choices: choices.map((c, i) => (i === index ? choice : c)) });

  /** The line moved: run the merge again against its new HEAD, keeping what still applies. */
  const rerun = async () => {
    setRerunning(true);
    setRerunError(null);
    try {
      const { data, error } = await preview.refetch();
      if (!data) throw error ?? new Error("The merge could not be run again.");
      const carried = carryChoices(conflicts, choices, data.conflicts);
      setRun({ preview: data, choices: carried.choices });
      setMoved({ ...carried, relation: data.relation });
    } catch (error) {
      setRerunError(error);
    } finally {
      setRerunning(false);
    }
  };

  const save = async () => {
    // The line's own metadata goes on, as a commit on top of it keeps it (its provenance does not).
    if (!ready || !oursHead.data) return;
    const kept = inheritedMetadata(oursHead.data.metadata);
    writeJson(AUTHOR_KEY, author.trim());
    setMoved(null);
    try {
      const saved = await commit.mutateAsync({
        repo_id: spaceId,
        message: message.trim(),
        ...resolved,
        metadata: { ...kept, author: { kind: "human", name: author.trim() || "anonymous" } },
        branch: ours,
        merge_parent_id: p.theirs_commit_id,
        expected_head_commit_id: p.ours_commit_id,
      });
      onMerged(saved);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        commit.reset();
        await rerun();
      }
    }
  };

  const runReview = () =>
    review.mutate(
      {
        ours: p.ours_commit_id,
        theirs: p.theirs_commit_id,
        merged: resolved,
        ...(reviewWith.provider ? { provider: reviewWith.provider, model: reviewWith.model } : {}),
      },
      {
        onSuccess: (result) => {
          setReviewed({ review: result, state: resolved });
          requestAnimationFrame(() =>
            reviewRef.current?.scrollIntoView?.({ block: "start", behavior: "smooth" }),
          );
        },
      },
    );
  const reviewStale = reviewed !== null && stableText(reviewed.state) !== stableText(resolved);

  return (
    <form
      className="merge-body"
      aria-label="Merge"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <MergeStatus
        preview={p}
        ours={ours}
        theirs={theirs}
        base={base.data ?? null}
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
            {sections === null ? (
              <Loading what={`${ours}'s state`} />
            ) : sections.length === 0 ? (
              <p className="muted small">Nothing changes on {ours}: it keeps its state as it is.</p>
            ) : (
              <DiffSections sections={sections} testId="merge-changes" />
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
                  onChoice={(choice) => choose(i, choice)}
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
                value={message}
                onChange={(e) => setMessage(e.target.value)}
              />
            </label>
            <label className="field narrow">
              <span>Your name</span>
              <input
                aria-label="Your name"
                placeholder="anonymous"
                value={author}
                onChange={(e) => setAuthor(e.target.value)}
              />
            </label>
          </div>
          <div ref={reviewRef} className="merge-review-slot">
            {review.isPending && (
              <p className="muted" role="status">
                <Spinner label="Reviewing" /> Reviewing the merged state…
              </p>
            )}
            <FailureNotice error={review.error} prefix="Review failed: " />
            {reviewed && (
              <MergeReviewView
                review={reviewed.review}
                reviewed={reviewed.state}
                ours={oursState}
                theirs={theirsState}
                oursName={ours}
                theirsName={theirs}
                stale={reviewStale}
              />
            )}
          </div>
        </>
      )}
      <div className="dialog-footer sticky">
        {moved && <MovedNotice moved={moved} ours={ours} theirs={theirs} head={oursHead.data} />}
        <FailureNotice error={rerunError} prefix="Running the merge again failed: " />
        <FailureNotice error={commit.error} />
        {whyNot && (
          <p id={whyNotId} className="muted small merge-left" aria-live="polite">
            {whyNot}
          </p>
        )}
        <div className="footer-buttons">
          <button type="button" className="btn" onClick={onClose}>
            {nothing ? "Close" : "Cancel"}
          </button>
          {!nothing && (
            <>
              <button
                type="button"
                className="btn"
                onClick={runReview}
                disabled={!ready || review.isPending || saving}
                title={ready ? "Review the merged state before saving it" : undefined}
                aria-describedby={whyNot ? whyNotId : undefined}
              >
                {review.isPending ? "Reviewing…" : reviewed ? "Review again" : "Review this merge"}
              </button>
              <button
                type="submit"
                className="btn primary"
                disabled={!ready || saving}
                aria-describedby={whyNot ? whyNotId : undefined}
              >
                {commit.isPending
                  ? "Saving…"
                  : rerunning
                    ? "Running again…"
                    : `Save merge into ${ours}`}
              </button>
            </>
          )}
        </div>
      </div>
    </form>
  );
}
