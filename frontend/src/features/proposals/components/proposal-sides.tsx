import type { Line } from "@/api/models";
import { isProtected, LockIcon } from "@/features/lines";
import { proposalSides } from "../lib/proposal";
import type { Proposal } from "../types";

/** "budget → main": what comes in and where, a deleted line struck as gone, a protected one locked. */
export function ProposalSides({ proposal, lines }: { proposal: Proposal; lines: readonly Line[] }) {
  const { from, into } = proposalSides(proposal);
  const locked = lines.some((l) => l.name === into.name && isProtected(l));
  return (
    <span className="proposal-sides" data-testid="proposal-sides">
      <code className="proposal-line">{from.name}</code>
      {from.deleted && <span className="muted small"> (deleted)</span>}
      {" → "}
      <code className="proposal-line">
        {into.name}
        {locked && <LockIcon />}
      </code>
      {into.deleted && <span className="muted small"> (deleted)</span>}
    </span>
  );
}
