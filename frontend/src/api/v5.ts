/**
 * Types of the v5 endpoints (draft, review, diff), written from their agreed contract while the
 * backend builds them. When they appear in the OpenAPI document, `npm run types` picks them up
 * and these become aliases of the generated types.
 */
import type { Artifact, Entity, Task } from "./models";

export interface DraftRequest {
  session_id: string;
  history_base_seq?: number | null;
  provider?: string | null;
  model?: string | null;
}

export interface TurnRange {
  session_id: string;
  from_seq: number;
  to_seq: number;
}

export interface DraftedBy {
  provider: string;
  model: string;
}

export interface CheckpointDraft {
  message: string;
  summary: string;
  decisions: string[];
  assumptions: string[];
  tasks: Task[];
  open_questions: string[];
  entities: Entity[];
  source: TurnRange;
  drafted_by: DraftedBy;
}

export type FindingKind =
  | "contradiction"
  | "hidden_assumption"
  | "resolved_question"
  | "disconnected_entity";

export type ItemField = "decisions" | "assumptions" | "tasks" | "open_questions" | "entities";

export interface FindingRef {
  field: ItemField;
  index: number;
}

export interface Finding {
  kind: FindingKind;
  detail: string;
  refs: FindingRef[];
  source: "rules" | "model";
}

export interface ReviewRequest {
  provider?: string | null;
  model?: string | null;
}

export interface Review {
  commit_id: string;
  findings: Finding[];
  reviewed_by: DraftedBy;
}

export interface TextChange {
  changed: boolean;
  before: string;
  after: string;
}

export interface ListChange {
  added: string[];
  removed: string[];
}

export interface ArtifactInfo {
  name: string;
  media_type: string;
  size: number;
}

export interface CheckpointDiff {
  from_commit_id: string;
  to_commit_id: string;
  identical: boolean;
  message: TextChange;
  summary: TextChange;
  decisions: ListChange;
  assumptions: ListChange;
  open_questions: ListChange;
  tasks: {
    added: Task[];
    removed: Task[];
    changed: { text: string; before_done: boolean; after_done: boolean }[];
  };
  entities: {
    added: Entity[];
    removed: Entity[];
    changed: { name: string; before: Entity; after: Entity }[];
  };
  artifacts: {
    added: ArtifactInfo[];
    removed: ArtifactInfo[];
    changed: { name: string; before_size: number; after_size: number; media_type_changed: boolean }[];
  };
  metadata_changed: boolean;
}

export type { Artifact };
