import { useMutation, useQueryClient } from "@tanstack/react-query";
import { request } from "@/api/client";
import { linePath } from "../lib/path";
import { invalidateLines } from "./invalidate";

/** DELETE /v4/repos/{repo_id}/branches/{name} — the line goes, its Checkpoints stay. */
export async function deleteLine(spaceId: string, name: string) {
  await request<null>("DELETE", linePath(spaceId, name));
}

export function useDeleteLine(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => deleteLine(spaceId, name),
    onSettled: () => invalidateLines(queryClient, spaceId),
  });
}
