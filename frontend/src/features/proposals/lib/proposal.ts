import type { ResolvedMerge } from "@/features/merges";
import type { Proposal, ProposalDetail, ProposalMerge } from "../types";

/** One side of a proposal: its line's name now (a rename is followed), else the name it had. */
export interface ProposalSide {
  name: string;
  deleted: boolean;
}

export function proposalSides(p: Proposal): { from: ProposalSide; into: ProposalSide } {
  return {
    from: { name: p.from ?? p.from_name, deleted: p.from_deleted },
    into: { name: p.into ?? p.into_name, deleted: p.into_deleted },
  };
}

/**
 * Why an open proposal cannot be merged from its page, or null when it can: the server refuses
 * these (409) too, so the page says so instead of offering a merge that will fail.
 */
export function mergeBlocker(p: ProposalDetail): string | null {
  if (p.status !== "open") return null;
  const { from, into } = proposalSides(p);
  if (from.deleted) return `The line ${from.name} was deleted: nothing comes in any more.`;
  if (into.deleted) return `The line ${into.name} it was to merge into was deleted.`;
  if (p.relation === null) return "A line has no Checkpoint yet: there is nothing to merge.";
  if (p.relation === "up_to_date")
    return `Everything on ${from.name} is already on ${into.name}: there is nothing to merge.`;
  return null;
}

/**
 * The merge request for the state the person resolved: exactly that state, and the two HEADs it
 * was resolved from, so that a line that moved since is refused (409) instead of merged unseen.
 */
export function proposalMergeBody({ run, resolved, message }: ResolvedMerge): ProposalMerge {
  return {
    merged: resolved,
    message,
    expected_into_head_commit_id: run.preview.ours_commit_id,
    expected_from_head_commit_id: run.preview.theirs_commit_id,
  };
}

/** The merge message offered first: what the server would write itself. */
export function defaultMergeMessage(p: Pick<Proposal, "number" | "title">): string {
  return `Merge proposal #${p.number}: ${p.title}`;
}
