import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { LineCreate } from "@/api/models";
import { invalidateLines } from "./invalidate";

/** POST /v4/repos/{repo_id}/branches — start a line at a Checkpoint (no Checkpoint is written). */
export async function createLine(spaceId: string, body: LineCreate) {
  return unwrap(
    api.POST("/v4/repos/{repo_id}/branches", { params: { path: { repo_id: spaceId } }, body }),
  );
}

export function useCreateLine(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LineCreate) => createLine(spaceId, body),
    onSettled: () => invalidateLines(queryClient, spaceId),
  });
}
