import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** GET /v5/search — Checkpoints and Turns that match, best first; one Space's with `spaceId`. */
export async function search(query: string, spaceId: string | null) {
  return unwrap(
    api.GET("/v5/search", {
      params: { query: { q: query, limit: 20, ...(spaceId ? { repo_id: spaceId } : {}) } },
    }),
  );
}

/** Asks only for a query with something in it; while the next answer loads, the last stays. */
export function useSearch(query: string, spaceId: string | null) {
  const trimmed = query.trim();
  return useQuery({
    queryKey: keys.search(trimmed, spaceId),
    queryFn: () => search(trimmed, spaceId),
    enabled: trimmed.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
  });
}

/** One hit as the API answers it. */
export type FoundHit = Awaited<ReturnType<typeof search>>["items"][number];
