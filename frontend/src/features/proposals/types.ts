/** The proposal endpoints' types, from the generated OpenAPI types (src/api/schema.d.ts). */
import type { components } from "@/api/schema";

type Schemas = components["schemas"];

/** A proposal as listed: merge the line `from` into the line `into` (SYSTEM.md §13). */
export type Proposal = Schemas["Proposal"];
/** One proposal with the merge of its lines' HEADs as they are now. */
export type ProposalDetail = Schemas["ProposalDetail"];
export type ProposalStatus = Proposal["status"];
export type ProposalMerge = Schemas["ProposalMerge"];
export type ProposalClose = Schemas["ProposalClose"];
