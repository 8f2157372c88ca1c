import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { Session, SessionUpdate } from "@/api/models";

/** PATCH /v4/sessions/{session_id} — rename a Session (an empty title leaves it untitled). */
export async function renameSession(sessionId: string, body: SessionUpdate) {
  return unwrap(
    api.PATCH("/v4/sessions/{session_id}", {
      params: { path: { session_id: sessionId } },
      body,
    }),
  );
}

type SessionPage = { items: Session[] };

export function useRenameSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sessionId, title }: { sessionId: string; title: string }) =>
      renameSession(sessionId, { title }),
    onSuccess: (session) => {
      // The header and the Session list (whatever its filter) show the new name at once, without a refetch.
      queryClient.setQueryData(keys.session(session.id), session);
      queryClient.setQueriesData<SessionPage>(
        { queryKey: keys.sessions(session.repo_id) },
        (page) =>
          page
            ? { ...page, items: page.items.map((s) => (s.id === session.id ? session : s)) }
            : page,
      );
    },
  });
}
