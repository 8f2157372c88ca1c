import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { ProposalClose } from "../types";
import { invalidateProposals } from "./invalidate";

/** POST /v5/repos/{repo_id}/proposals/{number}/close — closed without merging; nothing else moves. */
export async function closeProposal(spaceId: string, number: number, body: ProposalClose) {
  return unwrap(
    api.POST("/v5/repos/{repo_id}/proposals/{number}/close", {
      params: { path: { repo_id: spaceId, number } },
      body,
    }),
  );
}

export function useCloseProposal(spaceId: string, number: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProposalClose) => closeProposal(spaceId, number, body),
    onSettled: () => invalidateProposals(queryClient, spaceId, false),
  });
}
