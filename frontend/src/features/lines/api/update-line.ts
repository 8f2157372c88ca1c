import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { linePathSerializer } from "../lib/path";
import type { LineChange } from "../lib/protection";
import { invalidateLines } from "./invalidate";

/** PATCH /v4/repos/{repo_id}/branches/{name} — rename a line, make it the default, (un)protect it. */
export async function updateLine(spaceId: string, name: string, body: LineChange) {
  return unwrap(
    api.PATCH("/v4/repos/{repo_id}/branches/{name}", {
      params: { path: { repo_id: spaceId, name } },
      body,
      pathSerializer: linePathSerializer,
    }),
  );
}

export function useUpdateLine(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, body }: { name: string; body: LineChange }) =>
      updateLine(spaceId, name, body),
    onSettled: () => invalidateLines(queryClient, spaceId),
  });
}
