/** Types of the v5 endpoints (draft, review, diff), from the generated OpenAPI types. */
import type { components } from "./schema";

type Schemas = components["schemas"];

export type DraftRequest = Schemas["DraftRequest"];
export type TurnRange = Schemas["DraftSource"];
export type DraftedBy = Schemas["DraftedBy"];
export type CheckpointDraft = Schemas["CheckpointDraft"];
export type Finding = Schemas["Finding"];
export type FindingKind = Finding["kind"];
export type FindingRef = Schemas["ItemRef"];
export type ItemField = FindingRef["field"];
export type ReviewRequest = Schemas["ReviewRequest"];
export type Review = Schemas["ReviewResult"];
export type CheckpointDiff = Schemas["CheckpointDiff"];
/** An agent key as listed (never the key itself); the one answer to making it carries `token`. */
export type AgentKey = Schemas["AgentKey"];
export type NewAgentKey = Schemas["NewAgentKey"];
export type AgentCreate = Schemas["AgentCreate"];
