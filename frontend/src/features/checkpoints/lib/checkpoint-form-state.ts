/**
 * The Save checkpoint form's state, pure: the values, the parent they are saved on, where the
 * save goes (a new line, or on top of the line's HEAD), the draft's proposals and where they came
 * from, the errors, and a refused save. Every change is an event of `checkpointFormReducer`;
 * `useCheckpointForm` owns the one state.
 */
import type { Checkpoint } from "@/api/models";
import type { CheckpointDraft } from "@/api/v5";
import { rebaseForm } from "./carry";
import {
  type CheckpointFormValues,
  type DraftProvenance,
  emptyForm,
  type FormErrors,
  formFromCheckpoint,
  validateForm,
} from "./form";
import { acceptProposal, type Proposal, proposalsFromDraft } from "./proposals";

/** Where a save from an old state goes: a new line started there, or on top of the line's HEAD. */
export type Where = "new-line" | "on-head";

export type CheckpointFormErrors = FormErrors & { lineName?: string };

export interface CheckpointFormState {
  values: CheckpointFormValues;
  /** The parent of the save: the form's starting state, or a HEAD the edits were moved onto. */
  base: Checkpoint | null;
  where: Where;
  /** The new line's name, when the save starts one. */
  lineName: string;
  /** The line this form created already (a retried save does not create it twice). */
  createdLine: string | null;
  /** The line's HEAD, fetched when it lies beyond the Checkpoints the app has loaded. */
  fetchedHead: Checkpoint | null;
  proposals: Proposal[];
  provenance: DraftProvenance | null;
  /** Whether the person took any of the draft's proposals: then the save records the draft. */
  acceptedDraft: boolean;
  errors: CheckpointFormErrors;
  /** The save was refused because the line's HEAD moved; `head` is its new HEAD, if known. */
  conflict: { detail: string; head: Checkpoint | null } | null;
}

export type CheckpointFormEvent =
  | { type: "edit"; values: CheckpointFormValues }
  | { type: "line-name"; name: string }
  /** Save somewhere else: the edits move onto `onto`, the parent that place starts from. */
  | { type: "where"; where: Where; onto: Checkpoint | null }
  /** The edits move onto `onto` (the new HEAD after a refused save); where stays. */
  | { type: "rebase"; onto: Checkpoint | null }
  | { type: "head-fetched"; head: Checkpoint }
  | { type: "drafted"; draft: CheckpointDraft }
  | { type: "accept"; proposal: Proposal }
  | { type: "reject"; proposal: Proposal }
  /** Save pressed: the errors found (none: the save goes, and the last refusal is forgotten). */
  | { type: "save"; errors: CheckpointFormErrors }
  | { type: "line-created"; name: string }
  | { type: "conflict"; detail: string; head: Checkpoint | null };

/** A Checkpoint's state as the form holds it (nothing: an empty form). */
export const valuesOf = (c: Checkpoint | null, author = ""): CheckpointFormValues =>
  c ? formFromCheckpoint(c, author) : emptyForm(author);

export function initialCheckpointForm(
  parent: Checkpoint | null,
  author: string,
  lineName: string,
): CheckpointFormState {
  return {
    values: valuesOf(parent, author),
    base: parent,
    where: "new-line",
    lineName,
    createdLine: null,
    fetchedHead: null,
    proposals: [],
    provenance: null,
    acceptedDraft: false,
    errors: {},
    conflict: null,
  };
}

/** The edits moved onto another parent's state: nothing of it dropped, nothing of theirs lost. */
function rebased(state: CheckpointFormState, onto: Checkpoint | null): CheckpointFormState {
  const values = rebaseForm(state.values, valuesOf(state.base), valuesOf(onto));
  return { ...state, values, base: onto };
}

export function checkpointFormReducer(
  state: CheckpointFormState,
  event: CheckpointFormEvent,
): CheckpointFormState {
  switch (event.type) {
    case "edit":
      return { ...state, values: event.values };
    case "line-name":
      return { ...state, lineName: event.name };
    case "where":
      return { ...rebased(state, event.onto), where: event.where };
    case "rebase":
      return rebased(state, event.onto);
    case "head-fetched":
      return { ...state, fetchedHead: event.head };
    case "drafted":
      // Against the values as they are when the draft arrives: what the person added meanwhile
      // (a proposal accepted while the next draft was on its way) is not proposed again.
      return {
        ...state,
        proposals: proposalsFromDraft(event.draft, state.values),
        provenance: { source: event.draft.source, draftedBy: event.draft.drafted_by },
        acceptedDraft: false,
      };
    case "accept":
      // Only a proposal still offered: one of an earlier draft's list (ids restart per draft) is not.
      if (!state.proposals.includes(event.proposal)) return state;
      return {
        ...state,
        values: acceptProposal(state.values, event.proposal),
        proposals: state.proposals.filter((p) => p !== event.proposal),
        acceptedDraft: true,
      };
    case "reject":
      return { ...state, proposals: state.proposals.filter((p) => p !== event.proposal) };
    case "save":
      return Object.keys(event.errors).length > 0
        ? { ...state, errors: event.errors }
        : { ...state, errors: {}, conflict: null };
    case "line-created":
      return { ...state, createdLine: event.name };
    case "conflict":
      return { ...state, conflict: { detail: event.detail, head: event.head } };
  }
}

/** What stops a save: the form's own errors, and a new line without a name. */
export function saveErrors(state: CheckpointFormState, newLine: boolean): CheckpointFormErrors {
  const found: CheckpointFormErrors = validateForm(state.values);
  if (newLine && state.lineName.trim() === "") found.lineName = "Name the new line.";
  return found;
}
