import { type QueryClient, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { Turn } from "@/api/models";
import { sessionQuery } from "./get-session";

export const TURN_PAGE = 1000;

/** GET /v4/sessions/{session_id}/turns — one page of Turns after `afterSeq`, in order. */
export async function listTurnsPage(sessionId: string, afterSeq: number, limit = TURN_PAGE) {
  return unwrap(
    api.GET("/v4/sessions/{session_id}/turns", {
      params: { path: { session_id: sessionId }, query: { after_seq: afterSeq, limit } },
    }),
  );
}

/**
 * Every Turn of a Session. Sequence numbers are gapless (1..turn_count), so the pages are
 * fetched in parallel by `after_seq`; anything written meanwhile is picked up by a final loop.
 */
export async function fetchAllTurns(queryClient: QueryClient, sessionId: string): Promise<Turn[]> {
  const session = await queryClient.fetchQuery({ ...sessionQuery(sessionId), staleTime: 0 });
  const pageCount = Math.max(1, Math.ceil(session.turn_count / TURN_PAGE));
  const pages = await Promise.all(
    Array.from({ length: pageCount }, (_, k) => listTurnsPage(sessionId, k * TURN_PAGE)),
  );
  const turns = pages.flatMap((page) => page.items);
  let last = pages[pages.length - 1];
  while (last && last.items.length === TURN_PAGE) {
    const after = turns[turns.length - 1]?.sequence_number ?? 0;
    last = await listTurnsPage(sessionId, after);
    turns.push(...last.items);
  }
  return turns;
}

export const turnsQuery = (queryClient: QueryClient, sessionId: string) =>
  queryOptions({
    queryKey: keys.turns(sessionId),
    queryFn: () => fetchAllTurns(queryClient, sessionId),
    // Turns are immutable and appended by this app's own sends; no need to refetch on focus.
    staleTime: 30_000,
  });

export function useTurns(sessionId: string) {
  const queryClient = useQueryClient();
  return useQuery(turnsQuery(queryClient, sessionId));
}

/** Adds Turns to the cached list (deduplicated by sequence_number, kept in order). */
export function mergeTurns(existing: readonly Turn[] | undefined, added: readonly Turn[]): Turn[] {
  const bySeq = new Map<number, Turn>();
  for (const turn of existing ?? []) bySeq.set(turn.sequence_number, turn);
  for (const turn of added) bySeq.set(turn.sequence_number, turn);
  return [...bySeq.values()].sort((a, b) => a.sequence_number - b.sequence_number);
}
