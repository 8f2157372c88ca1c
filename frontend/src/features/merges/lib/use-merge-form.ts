import { useMemo, useReducer } from "react";
import { ApiError } from "@/api/client";
import type { Checkpoint } from "@/api/models";
import {
  AUTHOR_KEY,
  inheritedMetadata,
  useCheckpoint,
  useCommitCheckpoint,
} from "@/features/checkpoints";
import { readJson, writeJson } from "@/lib/storage";
import { useMergePreview } from "../api/preview-merge";
import { useReviewMerge } from "../api/review-merge";
import type { Choice, MergePreview, MergeState } from "../types";
import { fullState, stableText } from "./items";
import {
  currentRun,
  initialMergeForm,
  type MergeRun,
  mergeFormReducer,
  saveGate,
} from "./merge-form-state";
import { resolveMerge } from "./resolve";
import { diffStates } from "./state-diff";

/** A merge as the person resolved it, ready to save. */
export interface ResolvedMerge {
  run: MergeRun;
  resolved: MergeState;
  message: string;
}

/**
 * Another way to save the resolved merge than a merge Checkpoint on `ours` made by this form:
 * a proposal's merge (the server makes that Checkpoint). It is refused with a 409 when a line
 * moved, as a commit is; the form then runs the merge again, keeping what still applies.
 */
export interface MergeSaver {
  save: (merge: ResolvedMerge) => Promise<unknown>;
  pending: boolean;
  error: unknown;
  reset: () => void;
  /** The save button's words ("Merge proposal #3"). */
  label: string;
  /** The message offered first, instead of "Merge <theirs> into <ours>". */
  defaultMessage?: string;
}

interface UseMergeFormOptions {
  spaceId: string;
  ours: string;
  theirs: string;
  /** The provider and model a review uses (the open Session's), else the server's default. */
  reviewWith: { provider: string | null; model: string | null };
  onMerged: (checkpoint: Checkpoint) => void;
  /** After a review arrived (the form scrolls to it). */
  onReviewed?: () => void;
  /** Saves through this instead of committing here (no author asked: the server records it). */
  saver?: MergeSaver;
  /** The preview of these lines the page already has (a proposal's), used instead of asking. */
  knownPreview?: MergePreview | null;
}

/**
 * The one owner of a merge form's state: the reducer of merge-form-state.ts over the preview, the
 * three Checkpoints it names, the save and the review. The form only shows what this returns.
 */
export function useMergeForm({
  spaceId,
  ours,
  theirs,
  reviewWith,
  onMerged,
  onReviewed,
  saver,
  knownPreview,
}: UseMergeFormOptions) {
  const preview = useMergePreview(spaceId, ours, theirs, knownPreview);
  const [state, dispatch] = useReducer(mergeFormReducer, null, () =>
    initialMergeForm(ours, theirs, readJson<string>(AUTHOR_KEY) ?? "", saver?.defaultMessage),
  );
  const run = useMemo(() => currentRun(state.run, preview.data), [state.run, preview.data]);
  const oursHead = useCheckpoint(run?.preview.ours_commit_id ?? null);
  const theirsHead = useCheckpoint(run?.preview.theirs_commit_id ?? null);
  const base = useCheckpoint(run?.preview.base_commit_id ?? null);
  const commit = useCommitCheckpoint();
  const review = useReviewMerge(spaceId);

  const resolved = useMemo(
    () => (run ? resolveMerge(run.preview, run.choices, { theirsName: theirs }) : null),
    [run, theirs],
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
  const gate = run ? saveGate(run, state.message) : null;

  const choose = (shown: MergeRun, index: number, choice: Choice) =>
    dispatch({ type: "choose", shown, index, choice });

  /** The line moved: run the merge again against its new HEAD, keeping what still applies. */
  const rerun = async (from: MergeRun) => {
    dispatch({ type: "rerun" });
    try {
      const { data, error } = await preview.refetch();
      if (!data) throw error ?? new Error("The merge could not be run again.");
      dispatch({ type: "rerun-done", from, preview: data });
    } catch (error) {
      dispatch({ type: "rerun-failed", error });
    }
  };

  const commitMerge = async ({ run: shown, resolved: merged, message }: ResolvedMerge) => {
    // The line's own metadata goes on, as a commit on top of it keeps it (its provenance does not).
    const kept = oursHead.data ? inheritedMetadata(oursHead.data.metadata) : {};
    const author = state.author.trim();
    writeJson(AUTHOR_KEY, author);
    const saved = await commit.mutateAsync({
      repo_id: spaceId,
      message,
      ...merged,
      metadata: { ...kept, author: { kind: "human", name: author || "anonymous" } },
      branch: ours,
      merge_parent_id: shown.preview.theirs_commit_id,
      expected_head_commit_id: shown.preview.ours_commit_id,
    });
    onMerged(saved);
  };
  const saving = saver ?? {
    save: commitMerge,
    pending: commit.isPending,
    error: commit.error,
    reset: commit.reset,
    label: `Save merge into ${ours}`,
  };

  const save = async () => {
    // A commit here carries the line's metadata on, so it waits for ours' HEAD to be read.
    if (!run || !resolved || !gate?.ready || (!saver && !oursHead.data)) return;
    dispatch({ type: "save" });
    try {
      await saving.save({ run, resolved, message: state.message.trim() });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        saving.reset();
        await rerun(run);
      }
    }
  };

  const runReview = () => {
    if (!run || !resolved) return;
    review.mutate(
      {
        ours: run.preview.ours_commit_id,
        theirs: run.preview.theirs_commit_id,
        merged: resolved,
        ...(reviewWith.provider ? { provider: reviewWith.provider, model: reviewWith.model } : {}),
      },
      {
        onSuccess: (result) => {
          dispatch({ type: "reviewed", review: result, state: resolved });
          onReviewed?.();
        },
      },
    );
  };

  const { reviewed } = state;
  return {
    /** The preview's first load: pending, or how it failed. */
    loading: preview.isPending,
    loadError: preview.error,
    run,
    resolved,
    gate,
    message: state.message,
    author: state.author,
    moved: state.moved,
    rerunError: state.rerunError,
    reviewed,
    /** The merged state changed since the review (a choice, or a re-run). */
    reviewStale:
      reviewed !== null && resolved !== null && stableText(reviewed.state) !== stableText(resolved),
    sections,
    oursHead: oursHead.data ?? null,
    base: base.data ?? null,
    oursState,
    theirsState,
    reviewing: review.isPending,
    reviewError: review.error,
    committing: saving.pending,
    rerunning: state.rerunning,
    saving: saving.pending || state.rerunning,
    commitError: saving.error,
    saveLabel: saving.label,
    /** Whether the form asks for a name to record as the merge's author. */
    asksAuthor: saver === undefined,
    setMessage: (text: string) => dispatch({ type: "message", text }),
    setAuthor: (text: string) => dispatch({ type: "author", text }),
    choose,
    save,
    runReview,
  };
}

export type MergeFormController = ReturnType<typeof useMergeForm>;
