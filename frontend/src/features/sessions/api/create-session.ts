import { useMutation, useQueryClient } from "@tanstack/react-query";
import { request } from "@/api/client";
import { keys } from "@/api/keys";
import type { Session, SessionCreate } from "@/api/models";

/** POST /v4/repos/{repo_id}/sessions — start a Session. */
export async function createSession(spaceId: string, body: SessionCreate) {
  return request<Session>("POST", `/v4/repos/${encodeURIComponent(spaceId)}/sessions`, body);
}

export function useCreateSession(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SessionCreate) => createSession(spaceId, body),
    onSuccess: (session) => {
      queryClient.setQueryData(keys.session(session.id), session);
      queryClient.setQueryData(keys.turns(session.id), []);
      return queryClient.invalidateQueries({ queryKey: keys.sessions(spaceId) });
    },
  });
}
