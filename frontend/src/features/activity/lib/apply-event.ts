import type { QueryClient } from "@tanstack/react-query";
import { keys } from "@/api/keys";
import type { SpaceEvent, Turn } from "@/api/models";
import { listTurnsPage, mergeTurns } from "@/features/sessions";
import { isSending } from "@/lib/sending";

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
      // A proposal shows its lines' HEADs and their merge preview.
      return [...head, keys.checkpoints(space), keys.lines(space), keys.proposals(space)];
    case "line.created":
      return [...head, keys.lines(space)];
    case "line.updated":
    case "line.deleted":
      return [...head, keys.lines(space), keys.proposals(space)];
    case "session.created":
    case "session.deleted":
      return [keys.sessions(space), ...(session ? [keys.session(session)] : [])];
    case "turns.added":
      // The Turns themselves are appended (appendTurns); their count and the context change.
      // The Space's usage counts the exchange too.
      return session
        ? [...head, keys.sessions(space), keys.session(session), keys.context(session)]
        : head;
    case "proposal.merged":
      return [keys.proposals(space), ...head, keys.checkpoints(space), keys.lines(space)];
    default:
      return event.type.startsWith("proposal.") ? [keys.proposals(space)] : [...head];
  }
}

/** How long events gather before the cache is refreshed once for all of them. */
const GATHER_MS = 150;

/**
 * Brings the cache up to date with the events as they come: refreshes exactly the queries they
 * change (only those some screen holds are fetched again; the rest are marked stale), the
 * Space's activity view, and for new Turns fetches only those after the last one cached. Events
 * that come together (a replay after a reconnect, an import, a busy agent) are gathered for
 * GATHER_MS and each query is refreshed once for all of them, not once per event.
 */
export class EventApplier {
  private readonly stale = new Map<string, Key>();
  private readonly sessions = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly queryClient: QueryClient,
    private readonly gatherMs = GATHER_MS,
  ) {}

  add(event: SpaceEvent): void {
    for (const key of [...changed(event), keys.events(event.repo_id)]) {
      this.stale.set(JSON.stringify(key), key);
    }
    const session = event.data.session_id;
    // Not while this tab sends in the Session: the send caches its pair with its answer.
    if (event.type === "turns.added" && typeof session === "string" && !isSending(session)) {
      this.sessions.add(session);
    }
    this.timer ??= setTimeout(() => this.flush(), this.gatherMs);
  }

  /** Refreshes what the gathered events changed. */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (const queryKey of this.stale.values()) {
      void this.queryClient.invalidateQueries({ queryKey });
    }
    for (const session of this.sessions) void appendTurns(this.queryClient, session);
    this.stale.clear();
    this.sessions.clear();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

async function appendTurns(queryClient: QueryClient, sessionId: string): Promise<void> {
  const cached = queryClient.getQueryData<Turn[]>(keys.turns(sessionId));
  if (!cached) return; // nobody shows this Session's Turns: read in full when it is opened
  const after = cached[cached.length - 1]?.sequence_number ?? 0;
  try {
    const page = await listTurnsPage(sessionId, after);
    if (page.items.length === 0) return; // already there: the list keeps its identity
    queryClient.setQueryData<Turn[]>(keys.turns(sessionId), (old) => mergeTurns(old, page.items));
    if (page.items.length < page.total) {
      void queryClient.invalidateQueries({ queryKey: keys.turns(sessionId) }); // more than a page
    }
  } catch {
    void queryClient.invalidateQueries({ queryKey: keys.turns(sessionId) });
  }
}
