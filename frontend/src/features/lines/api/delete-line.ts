import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { linePathSerializer } from "../lib/path";
import { invalidateLines } from "./invalidate";

/** DELETE /v4/repos/{repo_id}/branches/{name} — the line goes, its Checkpoints stay. */
export async function deleteLine(spaceId: string, name: string) {
  await unwrap(
    api.DELETE("/v4/repos/{repo_id}/branches/{name}", {
      params: { path: { repo_id: spaceId, name } },
      pathSerializer: linePathSerializer,
    }),
  );
}

export function useDeleteLine(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => deleteLine(spaceId, name),
    onSettled: () => invalidateLines(queryClient, spaceId),
  });
}
