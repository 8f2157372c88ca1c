import { Link, useLocation } from "wouter";
import type { Checkpoint, Session } from "@/api/models";
import { FailureNotice, Loading } from "@/components/feedback";
import { findById } from "@/lib/find-by-id";
import { formatUsage, plural, shortHash, timeAgo, USAGE_NOTE } from "@/lib/format";
import { useCreateSession } from "../api/create-session";
import { useSessions } from "../api/list-sessions";
import { defaultSessionTitle, sessionTitle } from "../lib/title";
import { ImportConversations } from "./import-conversations";

interface SessionSidebarProps {
  spaceId: string;
  activeSessionId: string | null;
  onNavigate?: () => void;
  /** The Space's Checkpoints, to name what each Session is based on. */
  checkpoints?: readonly Checkpoint[];
}

/** The Sessions of a Space, newest first, with a button to start one. */
export function SessionSidebar({
  spaceId,
  activeSessionId,
  onNavigate,
  checkpoints = [],
}: SessionSidebarProps) {
  const sessions = useSessions(spaceId);
  const create = useCreateSession(spaceId);
  const [, navigate] = useLocation();

  const start = () =>
    create.mutate(
      { title: defaultSessionTitle(sessions.data?.items ?? []) },
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
      {sessions.isPending && <Loading what="Sessions" />}
      <FailureNotice error={sessions.error} />
      {sessions.data && sessions.data.items.length === 0 && (
        <p className="muted sidebar-empty">No Sessions yet. Start one to talk to a model.</p>
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
              <SessionBase session={session} checkpoints={checkpoints} />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** What a Session starts from: its base Checkpoint (a fork's), or the full history. */
function SessionBase({
  session,
  checkpoints,
}: {
  session: Session;
  checkpoints: readonly Checkpoint[];
}) {
  if (!session.base_commit_id) return null;
  const base = findById(checkpoints, session.base_commit_id);
  return (
    <span className="session-base" data-testid="session-base">
      {session.forked_from ? "forked · " : ""}based on{" "}
      <code>{base ? shortHash(base.commit_hash) : "a Checkpoint"}</code>
      {base ? ` ${base.message}` : ""}
    </span>
  );
}
