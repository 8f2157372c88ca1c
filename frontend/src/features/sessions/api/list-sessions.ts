import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** GET /v4/repos/{repo_id}/sessions — newest first. */
export async function listSessions(spaceId: string) {
  return unwrap(
    api.GET("/v4/repos/{repo_id}/sessions", {
      params: { path: { repo_id: spaceId }, query: { limit: 200 } },
    }),
  );
}

export const sessionsQuery = (spaceId: string) =>
  queryOptions({ queryKey: keys.sessions(spaceId), queryFn: () => listSessions(spaceId) });

export function useSessions(spaceId: string) {
  return useQuery(sessionsQuery(spaceId));
}
