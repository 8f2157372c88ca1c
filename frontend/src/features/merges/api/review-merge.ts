import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { MergeReviewRequest } from "../types";

/**
 * POST /v5/repos/{repo_id}/merge/review — the resolved state reviewed like a Checkpoint before it
 * is saved; each finding that only combining the two lines produces is marked `from_merge`.
 */
export async function reviewMerge(spaceId: string, body: MergeReviewRequest) {
  return unwrap(
    api.POST("/v5/repos/{repo_id}/merge/review", {
      params: { path: { repo_id: spaceId } },
      body,
    }),
  );
}

export function useReviewMerge(spaceId: string) {
  return useMutation({ mutationFn: (body: MergeReviewRequest) => reviewMerge(spaceId, body) });
}
