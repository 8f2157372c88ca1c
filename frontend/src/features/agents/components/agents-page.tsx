import { useState } from "react";
import { ApiError } from "@/api/client";
import type { AgentKey, NewAgentKey } from "@/api/v5";
import { ConfirmDialog } from "@/components/dialog";
import { EmptyState, errorMessage, FailureNotice, Loading } from "@/components/feedback";
import { useSpaces } from "@/features/spaces";
import { formatDateTime, timeAgo } from "@/lib/format";
import { useDocumentTitle } from "@/lib/use-document-title";
import { useAgents } from "../api/list-agents";
import { useRevokeAgent } from "../api/revoke-agent";
import { describeAccess, describeReach } from "../lib/agent-key";
import { AgentKeyForm } from "./agent-form";
import { NewKey } from "./new-key";

/** Agent keys (SYSTEM.md §13): make one, copy it once, see when each was last used, revoke. */
export function AgentsPage() {
  useDocumentTitle("Agents");
  const agents = useAgents();
  const spaces = useSpaces();
  const [made, setMade] = useState<NewAgentKey | null>(null);
  const [revoking, setRevoking] = useState<AgentKey | null>(null);
  const revoke = useRevokeAgent();
  const spaceNames = new Map((spaces.data?.items ?? []).map((s) => [s.id, s.name]));
  // Only the person manages keys; an app running on an agent's key is told so, not shown an error.
  const refusal =
    agents.error instanceof ApiError && agents.error.status === 403 ? agents.error : null;

  return (
    <div className="page agents-page">
      <header className="page-header">
        <div>
          <h1>Agents</h1>
          <p className="muted">
            Each agent gets a key of its own: what it saves is marked with its name, it reaches only
            the Spaces you choose, and you can revoke it at any time.
          </p>
        </div>
      </header>
      {refusal ? (
        <p className="card agents-refused" data-testid="agents-refused">
          This app is using an agent's key, and agents cannot see or manage agent keys. Open it with
          the server's own token (or, on a server without one, with no token) to manage them. The
          server said: {refusal.detail}
        </p>
      ) : (
        <>
          {made ? (
            <NewKey made={made} onDone={() => setMade(null)} />
          ) : (
            <AgentKeyForm spaces={spaces.data?.items ?? []} onCreated={setMade} />
          )}
          {agents.isPending && <Loading what="agent keys" />}
          <FailureNotice error={agents.error} />
          {agents.data?.length === 0 && (
            <EmptyState title="No agent keys yet">
              <p className="muted">Make one above for each agent that works in your Spaces.</p>
            </EmptyState>
          )}
          {agents.data && agents.data.length > 0 && (
            <ul className="agent-list" aria-label="Agent keys">
              {agents.data.map((agent) => (
                <AgentRow
                  key={agent.id}
                  agent={agent}
                  reach={describeReach(agent.spaces, spaceNames)}
                  onRevoke={() => setRevoking(agent)}
                />
              ))}
            </ul>
          )}
        </>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke the key of “${revoking?.name ?? ""}”?`}
        body={
          <p>
            Within a second every request made with it is refused, on every server process. What the
            agent saved stays and still names it. A revoked key cannot be restored: make a new one
            instead.
          </p>
        }
        confirmLabel="Revoke key"
        danger
        busy={revoke.isPending}
        error={revoke.error ? errorMessage(revoke.error) : null}
        onConfirm={() =>
          revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })
        }
        onCancel={() => {
          revoke.reset();
          setRevoking(null);
        }}
      />
    </div>
  );
}

function AgentRow({
  agent,
  reach,
  onRevoke,
}: {
  agent: AgentKey;
  reach: string;
  onRevoke: () => void;
}) {
  const revoked = agent.revoked_at !== null;
  return (
    <li
      className={`card agent-row${revoked ? " revoked" : ""}`}
      data-testid="agent-row"
      data-agent={agent.name}
    >
      <div className="agent-main">
        <b className="agent-name">{agent.name}</b>{" "}
        <span className={`badge ${agent.write ? "agent-writes" : "agent-reads"}`}>
          {describeAccess(agent)}
        </span>
        {agent.revoked_at && (
          <span className="badge agent-revoked" title={formatDateTime(agent.revoked_at)}>
            revoked {timeAgo(agent.revoked_at)}
          </span>
        )}
        <p className="muted small agent-meta">
          <span>Reaches {reach}</span>
          <span title={formatDateTime(agent.created_at)}> · made {timeAgo(agent.created_at)}</span>
          <span title={agent.last_used_at ? formatDateTime(agent.last_used_at) : undefined}>
            {" "}
            · {agent.last_used_at ? `last used ${timeAgo(agent.last_used_at)}` : "never used"}
          </span>
        </p>
      </div>
      {!revoked && (
        <button
          type="button"
          className="btn small danger-outline"
          aria-label={`Revoke the key of ${agent.name}`}
          onClick={onRevoke}
        >
          Revoke
        </button>
      )}
    </li>
  );
}
