import { queryOptions, useQuery } from "@tanstack/react-query";
import { request } from "@/api/client";
import { keys } from "@/api/keys";
import type { Session } from "@/api/models";

/** GET /v4/sessions/{session_id} — one Session; turn_count is also its highest sequence_number. */
export async function getSession(sessionId: string) {
  return request<Session>("GET", `/v4/sessions/${encodeURIComponent(sessionId)}`);
}

export const sessionQuery = (sessionId: string) =>
  queryOptions({ queryKey: keys.session(sessionId), queryFn: () => getSession(sessionId) });

/** One Session; an empty id asks for nothing. */
export function useSession(sessionId: string) {
  return useQuery({ ...sessionQuery(sessionId), enabled: sessionId !== "" });
}
