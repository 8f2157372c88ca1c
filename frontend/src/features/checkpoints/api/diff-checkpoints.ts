import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** GET /v5/commits/{from_ref}/diff/{to_ref} — what changed between two Checkpoints. */
export async function diffCheckpoints(fromRef: string, toRef: string) {
  return unwrap(
    api.GET("/v5/commits/{from_ref}/diff/{to_ref}", {
      params: { path: { from_ref: fromRef, to_ref: toRef } },
    }),
  );
}

export function useCheckpointDiff(fromRef: string | null, toRef: string | null) {
  return useQuery({
    queryKey: keys.diff(fromRef ?? "", toRef ?? ""),
    queryFn: () => diffCheckpoints(fromRef ?? "", toRef ?? ""),
    enabled: fromRef !== null && toRef !== null,
    staleTime: Infinity,
  });
}
