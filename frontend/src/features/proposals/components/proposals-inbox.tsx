import { useState } from "react";
import { Link } from "wouter";
import type { Line } from "@/api/models";
import { AuthorBadge } from "@/components/author-badge";
import { EmptyState, FailureNotice, Loading } from "@/components/feedback";
import { agentCreator } from "@/lib/author";
import { formatDateTime, timeAgo } from "@/lib/format";
import { useProposals } from "../api/list-proposals";
import type { ProposalStatus } from "../types";
import { ProposalSides } from "./proposal-sides";

const statuses: { id: ProposalStatus; label: string }[] = [
  { id: "open", label: "Open" },
  { id: "merged", label: "Merged" },
  { id: "closed", label: "Closed" },
];

/** A Space's proposals, newest first, open ones unless asked for the merged or closed. */
export function ProposalsInbox({ spaceId, lines }: { spaceId: string; lines: readonly Line[] }) {
  const [status, setStatus] = useState<ProposalStatus>("open");
  const list = useProposals(spaceId, status);
  const items = list.data?.items ?? [];
  return (
    <section className="proposals-inbox" aria-label="Proposals">
      <fieldset className="segmented" aria-label="Show proposals">
        {statuses.map((s) => (
          <button
            key={s.id}
            type="button"
            aria-pressed={status === s.id}
            onClick={() => setStatus(s.id)}
          >
            {s.label}
          </button>
        ))}
      </fieldset>
      {list.isPending && <Loading what="proposals" />}
      <FailureNotice error={list.error} />
      {list.data && items.length === 0 && (
        <EmptyState title={`No ${status} proposals`}>
          {status === "open" && (
            <p className="muted small">
              An agent proposes a change to a line by working on a line of its own and opening a
              proposal (<code>smriti propose</code>); it waits here for you to merge or close.
            </p>
          )}
        </EmptyState>
      )}
      <ul className="proposal-list">
        {items.map((p) => {
          const agent = agentCreator(p);
          return (
            <li
              key={p.id}
              className="proposal-row"
              data-testid="proposal-row"
              data-number={p.number}
            >
              <Link href={`/spaces/${spaceId}/proposals/${p.number}`} className="proposal-link">
                <span className="muted">#{p.number}</span> {p.title}
              </Link>
              <span className="proposal-meta muted small">
                <ProposalSides proposal={p} lines={lines} />
                {" · "}
                {agent ? <AuthorBadge author={agent} /> : "you"}
                {" · "}
                <span title={formatDateTime(p.updated_at)}>{timeAgo(p.updated_at)}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
