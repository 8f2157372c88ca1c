import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { LineUpdate } from "@/api/models";
import { linePathSerializer } from "../lib/path";
import { invalidateLines } from "./invalidate";

/** PATCH /v4/repos/{repo_id}/branches/{name} — rename a line, or make it the default. */
export async function updateLine(spaceId: string, name: string, body: LineUpdate) {
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
    mutationFn: ({ name, body }: { name: string; body: LineUpdate }) =>
      updateLine(spaceId, name, body),
    onSettled: () => invalidateLines(queryClient, spaceId),
  });
}
