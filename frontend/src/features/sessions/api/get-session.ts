import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** GET /v4/sessions/{session_id} — one Session; turn_count is also its highest sequence_number. */
export async function getSession(sessionId: string) {
  return unwrap(
    api.GET("/v4/sessions/{session_id}", { params: { path: { session_id: sessionId } } }),
  );
}

export const sessionQuery = (sessionId: string) =>
  queryOptions({ queryKey: keys.session(sessionId), queryFn: () => getSession(sessionId) });

/** One Session; an empty id asks for nothing. */
export function useSession(sessionId: string) {
  return useQuery({ ...sessionQuery(sessionId), enabled: sessionId !== "" });
}
