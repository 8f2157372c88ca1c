import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/**
 * GET /v4/sessions/{session_id}/turns/{sequence_number}/context — the context a reply was
 * answered from, rebuilt, with its hash beside the reply's receipt. It never changes: cached for
 * good once read.
 */
export function useAnsweredContext(sessionId: string, sequenceNumber: number | null) {
  return useQuery({
    queryKey: [...keys.turns(sessionId), "answered", sequenceNumber] as const,
    queryFn: () =>
      unwrap(
        api.GET("/v4/sessions/{session_id}/turns/{sequence_number}/context", {
          params: { path: { session_id: sessionId, sequence_number: sequenceNumber ?? 0 } },
        }),
      ),
    enabled: sequenceNumber !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
