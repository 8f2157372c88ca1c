import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/**
 * GET /v4/repos/{repo_id}/sessions — newest first, each with its lineage; `title` keeps the
 * Sessions whose title contains it, ignoring case (the server's `?q=`).
 */
export async function listSessions(spaceId: string, title = "") {
  return unwrap(
    api.GET("/v4/repos/{repo_id}/sessions", {
      params: {
        path: { repo_id: spaceId },
        query: { limit: 200, ...(title.trim() ? { q: title.trim() } : {}) },
      },
    }),
  );
}

export const sessionsQuery = (spaceId: string, title = "") =>
  queryOptions({
    // Under keys.sessions(spaceId), so that whatever refreshes the list refreshes every filter of it.
    queryKey: [...keys.sessions(spaceId), title.trim()] as const,
    queryFn: () => listSessions(spaceId, title),
  });

export function useSessions(spaceId: string, title = "") {
  // While a new filter loads, the list keeps the last one's rows instead of flashing empty.
  return useQuery({ ...sessionsQuery(spaceId, title), placeholderData: keepPreviousData });
}
