import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { SessionCreate } from "@/api/models";
import { cacheNewSession } from "./new-session";

/** POST /v4/repos/{repo_id}/sessions — start a Session. */
export async function createSession(spaceId: string, body: SessionCreate) {
  return unwrap(
    api.POST("/v4/repos/{repo_id}/sessions", { params: { path: { repo_id: spaceId } }, body }),
  );
}

export function useCreateSession(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SessionCreate) => createSession(spaceId, body),
    onSuccess: (session) => cacheNewSession(queryClient, spaceId, session),
  });
}
