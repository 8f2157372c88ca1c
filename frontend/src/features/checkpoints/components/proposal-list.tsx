import { describeProposal, type Proposal } from "../lib/proposals";

interface ProposalListProps {
  proposals: readonly Proposal[];
  onAccept: (proposal: Proposal) => void;
  onReject: (proposal: Proposal) => void;
}

/** What Draft with AI suggests, each to accept into the form or reject; nothing is applied unasked. */
export function ProposalList({ proposals, onAccept, onReject }: ProposalListProps) {
  if (proposals.length === 0) return null;
  return (
    <section className="proposals" aria-label="Draft proposals" data-testid="proposals">
      <div className="proposals-header">
        <h3>
          Proposed by the draft <span className="count">{proposals.length}</span>
        </h3>
        <div className="toolbar-actions">
          <button
            type="button"
            className="btn small"
            onClick={() => {
              for (const p of proposals) onAccept(p);
            }}
          >
            Accept all
          </button>
          <button
            type="button"
            className="btn small ghost"
            onClick={() => {
              for (const p of proposals) onReject(p);
            }}
          >
            Reject all
          </button>
        </div>
      </div>
      <ul>
        {proposals.map((p) => {
          const { what, text } = describeProposal(p);
          return (
            <li key={p.id} className="proposal" data-testid="proposal">
              <span className="proposal-what">{what}</span>
              <span className="proposal-text">{text}</span>
              <span className="proposal-actions">
                <button
                  type="button"
                  className="btn small primary"
                  aria-label={`Accept: ${what} ${text}`}
                  onClick={() => onAccept(p)}
                >
                  Accept
                </button>
                <button
                  type="button"
                  className="btn small ghost"
                  aria-label={`Reject: ${what} ${text}`}
                  onClick={() => onReject(p)}
                >
                  Reject
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
