import { Link } from "wouter";
import type { Session } from "@/api/models";
import { plural } from "@/lib/format";
import { useSession } from "../api/get-session";
import { sessionTitle } from "../lib/title";

/**
 * Beside a Session's title, its lineage as the server records it: the Session it was forked
 * from (which may have been deleted since), and the Sessions continued from it.
 */
export function SessionLineage({ session }: { session: Session }) {
  return (
    <>
      <SessionOrigin session={session} />
      <SessionContinued session={session} />
    </>
  );
}

function SessionOrigin({ session }: { session: Session }) {
  const fork = session.forked_from;
  const gone = fork?.deleted ?? false;
  const origin = useSession(fork && !gone ? fork.session_id : "");
  if (!fork) return null;
  return (
    <p className="session-origin muted small" data-testid="session-origin">
      Forked from{" "}
      {gone ? (
        <span title={fork.session_id}>a Session since deleted</span>
      ) : (
        <Link href={`/spaces/${session.repo_id}/sessions/${fork.session_id}`}>
          {origin.data ? sessionTitle(origin.data) : "its origin Session"}
        </Link>
      )}{" "}
      after Turn #{fork.sequence_number}
    </p>
  );
}

function SessionContinued({ session }: { session: Session }) {
  const newest = session.continued_in[0];
  if (!newest) return null;
  const more = session.continued_count - 1;
  return (
    <p className="session-origin muted small" data-testid="session-continued">
      Continued in{" "}
      <Link href={`/spaces/${session.repo_id}/sessions/${newest.session_id}`}>
        {newest.title.trim() || "a new Session"}
      </Link>
      {more > 0 && ` and ${plural(more, "more Session")}`}
    </p>
  );
}
