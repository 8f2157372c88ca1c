import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { Checkpoint } from "@/api/models";

const PAGE = 200;

/** GET /v4/repos/{repo_id}/commits — every Checkpoint of a Space, newest first. */
export async function listCheckpoints(spaceId: string): Promise<Checkpoint[]> {
  const all: Checkpoint[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await unwrap(
      api.GET("/v4/repos/{repo_id}/commits", {
        params: { path: { repo_id: spaceId }, query: { limit: PAGE, offset } },
      }),
    );
    all.push(...page.items);
    if (page.items.length < PAGE || all.length >= page.total) return all;
  }
}

export const checkpointsQuery = (spaceId: string) =>
  queryOptions({ queryKey: keys.checkpoints(spaceId), queryFn: () => listCheckpoints(spaceId) });

export function useCheckpoints(spaceId: string) {
  return useQuery(checkpointsQuery(spaceId));
}
