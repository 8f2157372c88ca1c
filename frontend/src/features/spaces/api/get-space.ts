import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** GET /v4/repos/{repo_id} — one Space (with its HEAD). */
export async function getSpace(spaceId: string) {
  return unwrap(api.GET("/v4/repos/{repo_id}", { params: { path: { repo_id: spaceId } } }));
}

export const spaceQuery = (spaceId: string) =>
  queryOptions({ queryKey: keys.space(spaceId), queryFn: () => getSpace(spaceId) });

export function useSpace(spaceId: string) {
  return useQuery(spaceQuery(spaceId));
}
