import { Link } from "wouter";
import type { Session } from "@/api/models";
import { useSession } from "../api/get-session";
import { sessionTitle } from "../lib/title";

/** Beside a forked Session's title: a link back to the Session and Turn it was forked from. */
export function SessionOrigin({ session }: { session: Session }) {
  const fork = session.forked_from;
  const origin = useSession(fork?.session_id ?? "");
  if (!fork) return null;
  return (
    <p className="session-origin muted small" data-testid="session-origin">
      Forked from{" "}
      <Link href={`/spaces/${session.repo_id}/sessions/${fork.session_id}`}>
        {origin.data ? sessionTitle(origin.data) : "its origin Session"}
      </Link>{" "}
      after Turn #{fork.sequence_number}
    </p>
  );
}
