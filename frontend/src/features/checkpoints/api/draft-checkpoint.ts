import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { DraftRequest } from "@/api/v5";

/** POST /v5/checkpoints/draft — the model drafts Checkpoint fields from the Turns in scope; nothing is saved. */
export async function draftCheckpoint(body: DraftRequest) {
  return unwrap(api.POST("/v5/checkpoints/draft", { body }));
}

export function useDraftCheckpoint() {
  return useMutation({ mutationFn: draftCheckpoint });
}
