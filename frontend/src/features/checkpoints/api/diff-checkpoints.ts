import { useQuery } from "@tanstack/react-query";
import { request } from "@/api/client";
import { keys } from "@/api/keys";
import type { CheckpointDiff } from "@/api/v5";

/** GET /v5/commits/{from_ref}/diff/{to_ref} — what changed between two Checkpoints. */
export async function diffCheckpoints(fromRef: string, toRef: string) {
  return request<CheckpointDiff>(
    "GET",
    `/v5/commits/${encodeURIComponent(fromRef)}/diff/${encodeURIComponent(toRef)}`,
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
