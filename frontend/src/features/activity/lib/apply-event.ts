import type { QueryClient } from "@tanstack/react-query";
import { keys } from "@/api/keys";
import type { SpaceEvent, Turn } from "@/api/models";
import { listTurnsPage, mergeTurns } from "@/features/sessions";

type Key = readonly unknown[];

/** The queries a type of event changes (SYSTEM.md §14), by the keys the features read them with. */
function changed(event: SpaceEvent): Key[] {
  const space = event.repo_id;
  const data = event.data;
  const session = typeof data.session_id === "string" ? data.session_id : null;
  const head = [keys.space(space), keys.spaces()]; // a Space's HEAD shows in both
  switch (event.type) {
    case "space.created":
    case "space.deleted":
      return [keys.spaces(), keys.space(space)];
    case "space.updated":
    case "space.imported":
      return [...head, keys.sessions(space), keys.checkpoints(space), keys.lines(space)];
    case "checkpoint.created":
      return [...head, keys.checkpoints(space), keys.lines(space)];
    case "line.created":
    case "line.updated":
    case "line.deleted":
      return [...head, keys.lines(space)];
    case "session.created":
    case "session.deleted":
      return [keys.sessions(space), ...(session ? [keys.session(session)] : [])];
    case "turns.added":
      // The Turns themselves are appended (appendTurns); their count and the context change.
      return session ? [keys.sessions(space), keys.session(session), keys.context(session)] : [];
    case "proposal.merged":
      return [keys.proposals(space), ...head, keys.checkpoints(space), keys.lines(space)];
    default:
      return event.type.startsWith("proposal.") ? [keys.proposals(space)] : [...head];
  }
}

/**
 * Brings the cache up to date with one event: refreshes exactly the queries it changes (only
 * those some screen holds are fetched again; the rest are marked stale), the Space's activity
 * view, and for new Turns fetches only those after the last one cached.
 */
export function applyEvent(queryClient: QueryClient, event: SpaceEvent): void {
  for (const queryKey of [...changed(event), keys.events(event.repo_id)]) {
    void queryClient.invalidateQueries({ queryKey });
  }
  const session = event.data.session_id;
  if (event.type === "turns.added" && typeof session === "string") {
    void appendTurns(queryClient, session);
  }
}

async function appendTurns(queryClient: QueryClient, sessionId: string): Promise<void> {
  const cached = queryClient.getQueryData<Turn[]>(keys.turns(sessionId));
  if (!cached) return; // nobody shows this Session's Turns: read in full when it is opened
  const after = cached[cached.length - 1]?.sequence_number ?? 0;
  try {
    const page = await listTurnsPage(sessionId, after);
    queryClient.setQueryData<Turn[]>(keys.turns(sessionId), (old) => mergeTurns(old, page.items));
    if (page.items.length < page.total) {
      void queryClient.invalidateQueries({ queryKey: keys.turns(sessionId) }); // more than a page
    }
  } catch {
    void queryClient.invalidateQueries({ queryKey: keys.turns(sessionId) });
  }
}
