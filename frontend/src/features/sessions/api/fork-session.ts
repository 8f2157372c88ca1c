import { useMutation, useQueryClient } from "@tanstack/react-query";
import { request } from "@/api/client";
import { keys } from "@/api/keys";
import type { ForkRequest, Session } from "@/api/models";

/** POST /v5/sessions/{session_id}/fork — a new Session based on a Checkpoint; no Turn is copied. */
export async function forkSession(sessionId: string, body: ForkRequest) {
  return request<Session>("POST", `/v5/sessions/${encodeURIComponent(sessionId)}/fork`, body);
}

export function useForkSession(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sessionId, body }: { sessionId: string; body: ForkRequest }) =>
      forkSession(sessionId, body),
    onSuccess: (session) => {
      queryClient.setQueryData(keys.session(session.id), session);
      queryClient.setQueryData(keys.turns(session.id), []);
      return queryClient.invalidateQueries({ queryKey: keys.sessions(spaceId) });
    },
  });
}
