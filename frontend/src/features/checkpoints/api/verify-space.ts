import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** GET /v4/repos/{repo_id}/verify — recompute every Checkpoint hash and parent link of a Space. */
export async function verifySpace(spaceId: string) {
  return unwrap(api.GET("/v4/repos/{repo_id}/verify", { params: { path: { repo_id: spaceId } } }));
}

/** On demand (a button), like a review: it reads every Checkpoint of the Space. */
export function useVerifySpace() {
  return useMutation({ mutationFn: verifySpace });
}
