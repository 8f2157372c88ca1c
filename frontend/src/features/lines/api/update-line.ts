import { useMutation, useQueryClient } from "@tanstack/react-query";
import { request } from "@/api/client";
import type { Line, LineUpdate } from "@/api/models";
import { linePath } from "../lib/path";
import { invalidateLines } from "./invalidate";

/** PATCH /v4/repos/{repo_id}/branches/{name} — rename a line, or make it the default. */
export async function updateLine(spaceId: string, name: string, body: LineUpdate) {
  return request<Line>("PATCH", linePath(spaceId, name), body);
}

export function useUpdateLine(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, body }: { name: string; body: LineUpdate }) =>
      updateLine(spaceId, name, body),
    onSettled: () => invalidateLines(queryClient, spaceId),
  });
}
