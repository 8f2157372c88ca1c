import type { Checkpoint, CommitCreate } from "@/api/models";
import type { CheckpointDraft, DraftedBy, TurnRange } from "@/api/v5";

/** Where the person's name is kept: one name for every Checkpoint they save, merges included. */
export const AUTHOR_KEY = "smriti.author";

/** The Save checkpoint form: every field of a Checkpoint, lists editable item by item. */
export interface CheckpointFormValues {
  message: string;
  summary: string;
  decisions: string[];
  assumptions: string[];
  openQuestions: string[];
  tasks: { text: string; done: boolean }[];
  entities: { name: string; kind: string; description: string }[];
  artifacts: { name: string; content: string; mediaType: string }[];
  authorName: string;
}

/** Where a drafted form came from; saved in the Checkpoint's metadata. */
export interface DraftProvenance {
  source: TurnRange;
  draftedBy: DraftedBy;
}

/**
 * The Session a Checkpoint is saved from, and the Turns it had (none yet: no range). Recorded as
 * `metadata.source`, which is how the server knows what a Session saved last (`last_saved`).
 */
export interface SaveSource {
  session_id: string;
  from_seq?: number;
  to_seq?: number;
}

export const emptyForm = (authorName = ""): CheckpointFormValues => ({
  message: "",
  summary: "",
  decisions: [],
  assumptions: [],
  openQuestions: [],
  tasks: [],
  entities: [],
  artifacts: [],
  authorName,
});

/** The lists a draft and a Checkpoint both hold, as the form edits them. */
function listsOf(
  state: Pick<
    CheckpointDraft,
    "decisions" | "assumptions" | "open_questions" | "tasks" | "entities"
  >,
) {
  return {
    decisions: [...state.decisions],
    assumptions: [...state.assumptions],
    openQuestions: [...state.open_questions],
    tasks: state.tasks.map((t) => ({ text: t.text, done: t.done ?? false })),
    entities: state.entities.map((e) => ({
      name: e.name,
      kind: e.kind ?? "",
      description: e.description ?? "",
    })),
  };
}

/** A draft from Draft with AI, as form values for the person to edit. */
export function formFromDraft(draft: CheckpointDraft, authorName: string): CheckpointFormValues {
  return {
    message: draft.message,
    summary: draft.summary,
    ...listsOf(draft),
    artifacts: [],
    authorName,
  };
}

/** An existing Checkpoint as form values (to carry its state forward, or to restore it). */
export function formFromCheckpoint(
  checkpoint: Checkpoint,
  authorName: string,
): CheckpointFormValues {
  return {
    message: "",
    summary: checkpoint.summary,
    ...listsOf(checkpoint),
    artifacts: checkpoint.artifacts.map((a) => ({
      name: a.name,
      content: a.content,
      mediaType: a.media_type ?? "text/plain",
    })),
    authorName,
  };
}

const clean = (items: readonly string[]) => items.map((s) => s.trim()).filter((s) => s.length > 0);
const orNull = (text: string) => (text.trim() === "" ? null : text.trim());

export type FormErrors = Partial<Record<"message" | "artifacts", string>>;

/** What must be fixed before saving (empty list items are simply dropped). */
export function validateForm(values: CheckpointFormValues): FormErrors {
  const errors: FormErrors = {};
  if (values.message.trim() === "") errors.message = "Give the Checkpoint a message.";
  const named = values.artifacts.filter((a) => a.name.trim() !== "" || a.content !== "");
  if (named.some((a) => a.name.trim() === "")) errors.artifacts = "Every artifact needs a name.";
  else {
    const names = named.map((a) => a.name.trim());
    if (new Set(names).size !== names.length) errors.artifacts = "Artifact names must be unique.";
  }
  return errors;
}

/**
 * The metadata keys Smriti records about how one Checkpoint was made; a Checkpoint made from it
 * does not inherit them (the server's apply and restore follow the same rule).
 */
const PROVENANCE_KEYS = new Set(["source", "author", "drafted_by", "restored_from"]);

export function inheritedMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata).filter(([key]) => !PROVENANCE_KEYS.has(key)));
}

/**
 * The body of POST /v4/chat/commit for these values: the whole state, never a partial one.
 * `expectedHead` makes the save a compare-and-swap against the line's HEAD the person saw
 * (null = the line has no HEAD yet).
 */
export function formToCommit(
  values: CheckpointFormValues,
  options: {
    spaceId: string;
    expectedHead: string | null;
    provenance?: DraftProvenance | null;
    /** The Session it is saved from, when no accepted draft says so more precisely. */
    source?: SaveSource | null;
    /** The parent: the Checkpoint whose state the form started from (default: the line's HEAD). */
    parentId?: string | null;
    /** The line to save on (default: the Space's default line). */
    branch?: string | null;
    /** The parent's metadata: carried forward, except what described the parent's own making. */
    baseMetadata?: Record<string, unknown> | null;
  },
): CommitCreate {
  const metadata: Record<string, unknown> = {
    ...inheritedMetadata(options.baseMetadata ?? {}),
    author: { kind: "human", name: values.authorName.trim() || "anonymous" },
  };
  if (options.provenance) {
    metadata.source = options.provenance.source;
    metadata.drafted_by = options.provenance.draftedBy;
  } else if (options.source) {
    metadata.source = options.source;
  }
  return {
    repo_id: options.spaceId,
    message: values.message.trim(),
    summary: values.summary.trim(),
    decisions: clean(values.decisions),
    assumptions: clean(values.assumptions),
    open_questions: clean(values.openQuestions),
    tasks: values.tasks
      .map((t) => ({ text: t.text.trim(), done: t.done }))
      .filter((t) => t.text.length > 0),
    entities: values.entities
      .filter((e) => e.name.trim() !== "")
      .map((e) => ({
        name: e.name.trim(),
        kind: orNull(e.kind),
        description: orNull(e.description),
      })),
    artifacts: values.artifacts
      .filter((a) => a.name.trim() !== "" || a.content !== "")
      .map((a) => ({
        name: a.name.trim(),
        content: a.content,
        media_type: a.mediaType.trim() || "text/plain",
      })),
    metadata,
    expected_head_commit_id: options.expectedHead,
    ...(options.parentId ? { parent_commit_id: options.parentId } : {}),
    ...(options.branch ? { branch: options.branch } : {}),
  };
}
