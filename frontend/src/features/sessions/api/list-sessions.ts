import { queryOptions, useQuery } from "@tanstack/react-query";
import { request } from "@/api/client";
import { keys } from "@/api/keys";
import type { Page, Session } from "@/api/models";

/**
 * GET /v4/repos/{repo_id}/sessions — newest first. Uses the thin typed fetch: the generated
 * schema has no shape for Session (see api/models.ts).
 */
export async function listSessions(spaceId: string) {
  return request<Page<Session>>(
    "GET",
    `/v4/repos/${encodeURIComponent(spaceId)}/sessions?limit=200`,
  );
}

export const sessionsQuery = (spaceId: string) =>
  queryOptions({ queryKey: keys.sessions(spaceId), queryFn: () => listSessions(spaceId) });

export function useSessions(spaceId: string) {
  return useQuery(sessionsQuery(spaceId));
}
