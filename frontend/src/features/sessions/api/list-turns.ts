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
 * fetched in parallel by `after_seq`; a page's `total` (Turns after its `after_seq`) tells
 * whether anything was written meanwhile, which a final loop then picks up.
 */
export async function fetchAllTurns(queryClient: QueryClient, sessionId: string): Promise<Turn[]> {
  // The first page does not need the Session: ask for both at once. The other pages go as soon
  // as the Session (small, so first back) says how many there are, not after the first page.
  const first = listTurnsPage(sessionId, 0);
  // Awaited below; this only keeps its failure, while the Session loads, from counting as unhandled.
  first.catch(() => undefined);
  const session = await queryClient.fetchQuery({ ...sessionQuery(sessionId), staleTime: 0 });
  const pageCount = Math.max(1, Math.ceil(session.turn_count / TURN_PAGE));
  const [firstPage, rest] = await Promise.all([
    first,
    Promise.all(
      Array.from({ length: pageCount - 1 }, (_, k) =>
        listTurnsPage(sessionId, (k + 1) * TURN_PAGE),
      ),
    ),
  ]);
  const pages = [firstPage, ...rest];
  const turns = pages.flatMap((page) => page.items);
  let last = pages[pages.length - 1];
  while (last && last.items.length > 0 && last.items.length < last.total) {
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
