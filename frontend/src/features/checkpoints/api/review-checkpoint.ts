import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { Review, ReviewRequest } from "@/api/v5";

/** POST /v5/commits/{commit_id}/review — on-demand review of a Checkpoint's reasoning. */
export async function reviewCheckpoint(checkpointId: string, body: ReviewRequest) {
  return unwrap(
    api.POST("/v5/commits/{commit_id}/review", {
      params: { path: { commit_id: checkpointId } },
      body,
    }),
  );
}

export function useReviewCheckpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ checkpointId, body }: { checkpointId: string; body: ReviewRequest }) =>
      reviewCheckpoint(checkpointId, body),
    onSuccess: (review, { checkpointId }) =>
      queryClient.setQueryData(keys.review(checkpointId), review),
  });
}

/** The last review run for this Checkpoint in this tab (reviews are on demand, never automatic). */
export function useStoredReview(checkpointId: string) {
  return useQuery<Review | null>({
    queryKey: keys.review(checkpointId),
    queryFn: () => null,
    enabled: false,
    initialData: null,
    staleTime: Infinity,
  });
}
