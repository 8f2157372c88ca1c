import { Link, useLocation } from "wouter";
import { AuthorBadge } from "@/components/author-badge";
import { FailureNotice, Loading } from "@/components/feedback";
import { Markdown } from "@/components/markdown";
import { useCheckpoint } from "@/features/checkpoints";
import { useLines } from "@/features/lines";
import { MergeForm, type MergeSaver } from "@/features/merges";
import { readAuthor } from "@/lib/author";
import { formatDateTime, shortHash, timeAgo } from "@/lib/format";
import { useDocumentTitle } from "@/lib/use-document-title";
import { useProposal } from "../api/get-proposal";
import { useMergeProposal } from "../api/merge-proposal";
import {
  defaultMergeMessage,
  mergeBlocker,
  proposalMergeBody,
  proposalSides,
} from "../lib/proposal";
import type { ProposalDetail } from "../types";
import { CloseProposal } from "./close-proposal";
import { ProposalSides } from "./proposal-sides";

/**
 * One proposal: who opened it, what it is for, from → into, and while open the merge of its
 * lines as they are now: what comes in and goes, a choice per conflict, a review, Merge, Close.
 */
export function ProposalPage({ spaceId, number }: { spaceId: string; number: number }) {
  const proposal = useProposal(spaceId, number);
  const lines = useLines(spaceId);
  useDocumentTitle(proposal.data ? `#${number} ${proposal.data.title}` : `Proposal #${number}`);
  if (proposal.isPending) return <Loading what={`proposal #${number}`} />;
  if (!proposal.data) return <FailureNotice error={proposal.error} />;
  const p = proposal.data;
  // The person is created_by null; an agent is named by the key it opened the proposal with.
  const opener = readAuthor(p.created_by) ?? { kind: "person" as const, id: null, name: null };
  return (
    <article className="proposal-page" data-testid="proposal-page" data-status={p.status}>
      <header className="page-header proposal-header">
        <h1>
          <span className="muted">#{p.number}</span> {p.title}
        </h1>
        <p className="proposal-facts">
          <span className={`badge proposal-status ${p.status}`} data-testid="proposal-status">
            {p.status}
          </span>{" "}
          <ProposalSides proposal={p} lines={lines.data ?? []} />
          <span className="muted">
            {" "}
            · opened by <AuthorBadge author={opener} />{" "}
            <span title={formatDateTime(p.created_at)}>{timeAgo(p.created_at)}</span>
          </span>
        </p>
      </header>
      {p.description.trim() && (
        <Markdown source={p.description} className="card proposal-description" />
      )}
      {p.status === "merged" && <MergedNote spaceId={spaceId} proposal={p} />}
      {p.status === "closed" && (
        <p className="card proposal-outcome" data-testid="proposal-outcome">
          Closed without merging{p.closed_reason ? `: ${p.closed_reason}` : "."}
        </p>
      )}
      {p.status === "open" && <OpenProposal spaceId={spaceId} proposal={p} />}
    </article>
  );
}

function MergedNote({ spaceId, proposal }: { spaceId: string; proposal: ProposalDetail }) {
  const merge = useCheckpoint(proposal.merge_commit_id);
  const { into } = proposalSides(proposal);
  return (
    <p className="card proposal-outcome" data-testid="proposal-outcome">
      Merged into <b>{into.name}</b>
      {proposal.merge_commit_id && (
        <>
          {" "}
          as Checkpoint{" "}
          <Link href={`/spaces/${spaceId}?checkpoint=${proposal.merge_commit_id}`}>
            {merge.data ? <code>{shortHash(merge.data.commit_hash)}</code> : "the merge"}
          </Link>
        </>
      )}{" "}
      <span className="muted" title={formatDateTime(proposal.updated_at)}>
        {timeAgo(proposal.updated_at)}
      </span>
    </p>
  );
}

function OpenProposal({ spaceId, proposal }: { spaceId: string; proposal: ProposalDetail }) {
  const [, navigate] = useLocation();
  const merge = useMergeProposal(spaceId, proposal.number);
  const blocker = mergeBlocker(proposal);
  const { from, into } = proposalSides(proposal);
  const saver: MergeSaver = {
    save: (resolved) => merge.mutateAsync(proposalMergeBody(resolved)),
    pending: merge.isPending,
    error: merge.error,
    reset: merge.reset,
    label: `Merge proposal #${proposal.number} into ${into.name}`,
    defaultMessage: defaultMergeMessage(proposal),
  };
  return (
    <section className="proposal-merge" aria-label="Merge this proposal">
      <div className="proposal-actions">
        <CloseProposal spaceId={spaceId} proposal={proposal} />
      </div>
      {blocker ? (
        <p className="card proposal-outcome" data-testid="proposal-blocked">
          {blocker}
        </p>
      ) : (
        <MergeForm
          // The merge of the lines as they are now; a line renamed meanwhile starts a new one.
          key={`${into.name}\n${from.name}`}
          spaceId={spaceId}
          ours={into.name}
          theirs={from.name}
          reviewWith={{ provider: null, model: null }}
          saver={saver}
          knownPreview={proposal.preview}
          closeLabel="Back to proposals"
          onClose={() => navigate(`/spaces/${spaceId}?panel=proposals`)}
          onMerged={() => undefined}
        />
      )}
    </section>
  );
}
