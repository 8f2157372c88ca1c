import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { ProposalMerge } from "../types";
import { invalidateProposals } from "./invalidate";

/**
 * POST /v5/repos/{repo_id}/proposals/{number}/merge — the person merges it: the server makes the
 * merge Checkpoint on `into`. A line that moved since the expected HEADs: 409, nothing written.
 */
export async function mergeProposal(spaceId: string, number: number, body: ProposalMerge) {
  return unwrap(
    api.POST("/v5/repos/{repo_id}/proposals/{number}/merge", {
      params: { path: { repo_id: spaceId, number } },
      body,
    }),
  );
}

export function useMergeProposal(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProposalMerge) => mergeProposal(spaceId, number, body),
    onSuccess: () => invalidateProposals(queryClient, spaceId, true),
  });
}
