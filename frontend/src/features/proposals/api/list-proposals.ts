import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { ProposalStatus } from "../types";

/** GET /v5/repos/{repo_id}/proposals?status= — a Space's proposals in one state, newest first. */
export async function listProposals(spaceId: string, status: ProposalStatus) {
  return unwrap(
    api.GET("/v5/repos/{repo_id}/proposals", {
      params: { path: { repo_id: spaceId }, query: { status, limit: 100 } },
    }),
  );
}

export const proposalsQuery = (spaceId: string, status: ProposalStatus) =>
  queryOptions({
    queryKey: keys.proposalList(spaceId, status),
    queryFn: () => listProposals(spaceId, status),
  });

export function useProposals(spaceId: string, status: ProposalStatus) {
  return useQuery(proposalsQuery(spaceId, status));
}

/** How many proposals wait for the person (the tab's count): the open list's total. */
export function useOpenProposalCount(spaceId: string): number | null {
  const open = useProposals(spaceId, "open");
  return open.data?.total ?? null;
}
