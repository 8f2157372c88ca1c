import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** GET /v4/commits/{ref} — one Checkpoint by id, hash or unique hash prefix. */
export async function getCheckpoint(ref: string) {
  return unwrap(api.GET("/v4/commits/{ref}", { params: { path: { ref } } }));
}

export const checkpointQuery = (ref: string) =>
  queryOptions({
    queryKey: keys.checkpoint(ref),
    queryFn: () => getCheckpoint(ref),
    staleTime: Infinity,
  });

export function useCheckpoint(ref: string | null) {
  return useQuery({ ...checkpointQuery(ref ?? ""), enabled: ref !== null });
}
