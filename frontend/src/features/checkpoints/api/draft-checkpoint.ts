import { useMutation } from "@tanstack/react-query";
import { request } from "@/api/client";
import type { CheckpointDraft, DraftRequest } from "@/api/v5";

/** POST /v5/checkpoints/draft — the model drafts Checkpoint fields from the Turns in scope; nothing is saved. */
export async function draftCheckpoint(body: DraftRequest) {
  return request<CheckpointDraft>("POST", "/v5/checkpoints/draft", body);
}

export function useDraftCheckpoint() {
  return useMutation({ mutationFn: draftCheckpoint });
}
