import { useDeferredValue, useState } from "react";
import { Link, useLocation } from "wouter";
import type { Checkpoint, Session } from "@/api/models";
import { AuthorBadge } from "@/components/author-badge";
import { FailureNotice, Loading } from "@/components/feedback";
import { agentCreator } from "@/lib/author";
import { findById } from "@/lib/find-by-id";
import { formatUsage, plural, shortHash, timeAgo, USAGE_NOTE } from "@/lib/format";
import { useCreateSession } from "../api/create-session";
import { useSessions } from "../api/list-sessions";
import { sessionTitle } from "../lib/title";
import { ImportConversations } from "./import-conversations";

interface SessionSidebarProps {
  spaceId: string;
  activeSessionId: string | null;
  onNavigate?: () => void;
  /** The Space's Checkpoints, to name what each Session is based on. */
  checkpoints?: readonly Checkpoint[];
}

/** The Sessions of a Space, newest first, found by title, with a button to start one. */
export function SessionSidebar({
  spaceId,
  activeSessionId,
  onNavigate,
  checkpoints = [],
}: SessionSidebarProps) {
  const [filter, setFilter] = useState("");
  // Typing is not held up by the list: the query follows the text a moment later.
  const sessions = useSessions(spaceId, useDeferredValue(filter));
  const create = useCreateSession(spaceId);
  const filtering = filter.trim() !== "";
  const [, navigate] = useLocation();

  const start = () =>
    create.mutate(
      // Untitled: the server titles it from its first message (a person may rename it anytime).
      {},
      {
        onSuccess: (session) => {
          navigate(`/spaces/${spaceId}/sessions/${session.id}`);
          onNavigate?.();
        },
      },
    );

  return (
    <nav className="session-sidebar" aria-label="Sessions">
      <div className="sidebar-header">
        <h2>Sessions</h2>
        <button
          type="button"
          className="btn primary small"
          onClick={start}
          disabled={create.isPending}
        >
          {create.isPending ? "Starting…" : "+ New Session"}
        </button>
      </div>
      <FailureNotice error={create.error} />
      <ImportConversations spaceId={spaceId} />
      <input
        type="search"
        className="session-filter"
        placeholder="Find a Session by title"
        aria-label="Find a Session by title"
        value={filter}
        maxLength={200}
        onChange={(event) => setFilter(event.target.value)}
      />
      {sessions.isPending && <Loading what="Sessions" />}
      <FailureNotice error={sessions.error} />
      {sessions.data && sessions.data.items.length === 0 && (
        <p className="muted sidebar-empty">
          {filtering
            ? "No Session's title holds that."
            : "No Sessions yet. Start one to talk to a model."}
        </p>
      )}
      <ul className="session-list">
        {sessions.data?.items.map((session) => (
          <li key={session.id}>
            <Link
              href={`/spaces/${spaceId}/sessions/${session.id}`}
              className={session.id === activeSessionId ? "session-link active" : "session-link"}
              aria-current={session.id === activeSessionId ? "page" : undefined}
              onClick={onNavigate}
            >
              <span className="session-title" title={sessionTitle(session)}>
                {sessionTitle(session)}
              </span>
              <span className="session-meta">
                {plural(session.turn_count, "Turn")}
                {session.provider ? ` · ${session.provider}` : ""} · {timeAgo(session.updated_at)}
              </span>
              {formatUsage(session.usage) && (
                <span className="session-meta" data-testid="session-usage" title={USAGE_NOTE}>
                  {formatUsage(session.usage)}
                </span>
              )}
              <SessionAuthor session={session} />
              <SessionBase session={session} checkpoints={checkpoints} />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The agent that started a Session; the person's are not marked. */
function SessionAuthor({ session }: { session: Session }) {
  const agent = agentCreator(session);
  return agent ? (
    <span className="session-meta">
      by <AuthorBadge author={agent} />
    </span>
  ) : null;
}

/**
 * What a Session starts from, its base Checkpoint (a fork's), and its lineage: forked from
 * another, continued in others.
 */
function SessionBase({
  session,
  checkpoints,
}: {
  session: Session;
  checkpoints: readonly Checkpoint[];
}) {
  const continued = session.continued_count > 0 && (
    <span className="session-base" data-testid="session-continued-count">
      continued in {plural(session.continued_count, "Session")}
    </span>
  );
  if (!session.base_commit_id) return continued || null;
  const base = findById(checkpoints, session.base_commit_id);
  return (
    <>
      <span className="session-base" data-testid="session-base">
        {session.forked_from ? "forked · " : ""}based on{" "}
        <code>{base ? shortHash(base.commit_hash) : "a Checkpoint"}</code>
        {base ? ` ${base.message}` : ""}
      </span>
      {continued}
    </>
  );
}
