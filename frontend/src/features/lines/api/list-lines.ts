import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** GET /v4/repos/{repo_id}/branches — the Space's lines, the default line first, then by name. */
export async function listLines(spaceId: string) {
  const page = await unwrap(
    api.GET("/v4/repos/{repo_id}/branches", {
      params: { path: { repo_id: spaceId }, query: { limit: 200 } },
    }),
  );
  return page.items;
}

export const linesQuery = (spaceId: string) =>
  queryOptions({ queryKey: keys.lines(spaceId), queryFn: () => listLines(spaceId) });

export function useLines(spaceId: string) {
  return useQuery(linesQuery(spaceId));
}
