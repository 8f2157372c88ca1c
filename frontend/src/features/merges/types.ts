/** The merge endpoints' types, from the generated OpenAPI types (src/api/schema.d.ts). */
import type { Artifact, Entity, Task } from "@/api/models";
import type { components } from "@/api/schema";

type Schemas = components["schemas"];

/** GET /v5/repos/{repo_id}/merge: theirs merged into ours, nothing saved. */
export type MergePreview = Schemas["MergePreview"];
/** One item both lines changed differently (or one removed and the other changed). */
export type MergeConflict = Schemas["ConflictingItem"];
export type MergeReviewRequest = Schemas["MergeReviewRequest"];
export type MergeReview = Schemas["MergeReview"];
export type MergeFinding = Schemas["MergeFinding"];
/** Two items of the merged state that make rival choices, which neither line had together. */
export type RivalChoice = Schemas["RivalChoice"];

/** The merged part of a Checkpoint, every field present (the wire type leaves them optional). */
export interface MergeState {
  summary: string;
  decisions: string[];
  assumptions: string[];
  tasks: Task[];
  open_questions: string[];
  entities: Entity[];
  artifacts: Artifact[];
}

export type MergeField = keyof MergeState;
export type ListField = Exclude<MergeField, "summary">;

/** One side's value of a conflicting item: text (summary, decisions…), an object, or absent. */
export type SideValue = string | Task | Entity | Artifact | null;

/**
 * What the person chose for one conflict. "edit" carries their own value: text for the summary
 * and the text lists, the item for tasks, entities and artifacts.
 */
export type Choice =
  | { kind: "ours" }
  | { kind: "theirs" }
  | { kind: "both" }
  | { kind: "edit"; value: string | Task | Entity | Artifact };

export type ChoiceKind = Choice["kind"];
