import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { Session } from "@/api/models";

/** DELETE /v4/sessions/{session_id} — a Session and its Turns; no Checkpoint is touched. */
export async function deleteSession(sessionId: string) {
  await unwrap(
    api.DELETE("/v4/sessions/{session_id}", { params: { path: { session_id: sessionId } } }),
  );
}

export function useDeleteSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (session: Session) => deleteSession(session.id),
    onSuccess: (_, session) => {
      queryClient.removeQueries({ queryKey: keys.session(session.id) });
      queryClient.removeQueries({ queryKey: keys.turns(session.id) });
      // The list, and every Session that names it (a fork's origin is now gone; its own origin
      // no longer lists it as continued).
      void queryClient.invalidateQueries({ queryKey: keys.sessions(session.repo_id) });
      void queryClient.invalidateQueries({ queryKey: ["session"] });
    },
  });
}
