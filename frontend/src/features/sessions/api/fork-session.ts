import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { ForkRequest } from "@/api/models";
import { cacheNewSession } from "./new-session";

/** POST /v5/sessions/{session_id}/fork — a new Session based on a Checkpoint; no Turn is copied. */
export async function forkSession(sessionId: string, body: ForkRequest) {
  return unwrap(
    api.POST("/v5/sessions/{session_id}/fork", {
      params: { path: { session_id: sessionId } },
      body,
    }),
  );
}

export function useForkSession(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sessionId, body }: { sessionId: string; body: ForkRequest }) =>
      forkSession(sessionId, body),
    onSuccess: (session, { sessionId }) => {
      // The origin now lists it as continued in it.
      void queryClient.invalidateQueries({ queryKey: keys.session(sessionId) });
      return cacheNewSession(queryClient, spaceId, session);
    },
  });
}
