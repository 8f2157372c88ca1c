import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** GET /v5/repos/{repo_id}/proposals/{number} — one proposal, its lines' merge as they are now. */
export async function getProposal(spaceId: string, number: number) {
  return unwrap(
    api.GET("/v5/repos/{repo_id}/proposals/{number}", {
      params: { path: { repo_id: spaceId, number } },
    }),
  );
}

export const proposalQuery = (spaceId: string, number: number) =>
  queryOptions({
    queryKey: keys.proposal(spaceId, number),
    queryFn: () => getProposal(spaceId, number),
  });

export function useProposal(spaceId: string, number: number) {
  return useQuery(proposalQuery(spaceId, number));
}
