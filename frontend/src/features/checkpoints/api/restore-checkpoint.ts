import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { RestoreRequest } from "@/api/models";
import { savedCheckpoint } from "./commit-checkpoint";

/** POST /v5/commits/{ref}/restore — a new Checkpoint on a line, equal to an older one. */
export async function restoreCheckpoint(ref: string, body: RestoreRequest) {
  return unwrap(api.POST("/v5/commits/{ref}/restore", { params: { path: { ref } }, body }));
}

export function useRestoreCheckpoint(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ref, body }: { ref: string; body: RestoreRequest }) =>
      restoreCheckpoint(ref, body),
    onSuccess: (checkpoint) => savedCheckpoint(queryClient, checkpoint),
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: keys.lines(spaceId) });
      void queryClient.invalidateQueries({ queryKey: keys.checkpoints(spaceId) });
    },
  });
}
