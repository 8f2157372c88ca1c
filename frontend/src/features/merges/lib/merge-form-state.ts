/**
 * The merge form's state, pure: the person's run of the merge (the preview and a choice per
 * conflict), the message and name to save with, what a re-run after the line moved kept, and the
 * last review. Every change is an event of `mergeFormReducer`; `useMergeForm` owns the one state.
 */
import type { Choice, MergePreview, MergeReview, MergeState } from "../types";
import { allChosen, type CarriedChoices, carryChoices } from "./resolve";

/** One run of the merge: its preview and the person's choice for each conflict (null: none yet). */
export interface MergeRun {
  preview: MergePreview;
  choices: (Choice | null)[];
}

/** The line merged into moved: what running the merge again against its new HEAD kept. */
export type Moved = CarriedChoices & { relation: MergePreview["relation"] };

export interface MergeFormState {
  /**
   * The person's run, once they chose or the merge ran again; null while it is the first
   * preview's (then the newest preview is shown: nothing of the person's rests on it yet).
   */
  run: MergeRun | null;
  message: string;
  author: string;
  moved: Moved | null;
  /** Running the merge again after a refused save: on its way, and how it last failed. */
  rerunning: boolean;
  rerunError: unknown;
  /** The last review, and the merged state it reviewed. */
  reviewed: { review: MergeReview; state: MergeState } | null;
}

export type MergeFormEvent =
  /** A choice for conflict `index` of `shown`, the run on screen. */
  | { type: "choose"; shown: MergeRun; index: number; choice: Choice }
  | { type: "message"; text: string }
  | { type: "author"; text: string }
  /** Save pressed: the notice of the last re-run is read and goes. */
  | { type: "save" }
  | { type: "rerun" }
  /** The merge ran again (after a 409): `from` is the run on screen when it started. */
  | { type: "rerun-done"; from: MergeRun; preview: MergePreview }
  | { type: "rerun-failed"; error: unknown }
  | { type: "reviewed"; review: MergeReview; state: MergeState };

export const freshRun = (preview: MergePreview): MergeRun => ({
  preview,
  choices: preview.conflicts.map(() => null),
});

export function initialMergeForm(
  ours: string,
  theirs: string,
  author: string,
  message = `Merge ${theirs} into ${ours}`,
): MergeFormState {
  return {
    run: null,
    message,
    author,
    moved: null,
    rerunning: false,
    rerunError: null,
    reviewed: null,
  };
}

/** The run on screen: the person's (`MergeFormState.run`), else the newest preview's. */
export function currentRun(
  mine: MergeRun | null,
  latest: MergePreview | undefined,
): MergeRun | null {
  return mine ?? (latest ? freshRun(latest) : null);
}

export function mergeFormReducer(state: MergeFormState, event: MergeFormEvent): MergeFormState {
  switch (event.type) {
    case "choose": {
      const run = state.run ?? event.shown;
      if (event.index < 0 || event.index >= run.choices.length) return state;
      const choices = run.choices.map((c, i) => (i === event.index ? event.choice : c));
      return { ...state, run: { preview: run.preview, choices } };
    }
    case "message":
      return { ...state, message: event.text };
    case "author":
      return { ...state, author: event.text };
    case "save":
      return state.moved === null ? state : { ...state, moved: null };
    case "rerun":
      return { ...state, rerunning: true, rerunError: null };
    case "rerun-done": {
      // Carried from the run as it is now: a choice made while the merge ran again counts too.
      const from = state.run ?? event.from;
      const carried = carryChoices(from.preview.conflicts, from.choices, event.preview.conflicts);
      return {
        ...state,
        run: { preview: event.preview, choices: carried.choices },
        moved: { ...carried, relation: event.preview.relation },
        rerunning: false,
      };
    }
    case "rerun-failed":
      return { ...state, rerunning: false, rerunError: event.error };
    case "reviewed":
      return { ...state, reviewed: { review: event.review, state: event.state } };
  }
}

/** Whether the run can be saved, and if not, why, in the words shown next to Save. */
export interface SaveGate {
  /** Everything on theirs is already on ours: nothing to save. */
  nothing: boolean;
  /** Conflicts without a choice. */
  left: number;
  ready: boolean;
  whyNot: string | null;
}

export function saveGate(run: MergeRun, message: string): SaveGate {
  const { conflicts } = run.preview;
  const left = conflicts.filter((_, i) => run.choices[i] == null).length;
  const nothing = run.preview.relation === "up_to_date";
  const ready = !nothing && allChosen(conflicts, run.choices) && message.trim() !== "";
  // A conflict is never saved as ours because nobody chose (docs/merge.md): the person sees why.
  const whyNot =
    nothing || ready
      ? null
      : left > 0
        ? `Choose for every conflict to save: ${left} left.`
        : message.trim() === ""
          ? "Write a message for the merge to save."
          : null;
  return { nothing, left, ready, whyNot };
}
