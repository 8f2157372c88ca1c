import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { Checkpoint, CommitCreate } from "@/api/models";

/** POST /v4/chat/commit — save a Checkpoint on a line and move its HEAD (compare-and-swap when asked). */
export async function commitCheckpoint(body: CommitCreate) {
  return unwrap(api.POST("/v4/chat/commit", { body }));
}

/** A new Checkpoint moved a line's HEAD (and maybe the Space's): refresh what shows them. */
export function savedCheckpoint(queryClient: QueryClient, checkpoint: Checkpoint) {
  queryClient.setQueryData(keys.checkpoint(checkpoint.id), checkpoint);
  queryClient.setQueryData(keys.checkpoints(checkpoint.repo_id), (old: Checkpoint[] | undefined) =>
    old ? [checkpoint, ...old.filter((c) => c.id !== checkpoint.id)] : old,
  );
  void queryClient.invalidateQueries({ queryKey: keys.checkpoints(checkpoint.repo_id) });
  void queryClient.invalidateQueries({ queryKey: keys.lines(checkpoint.repo_id) });
  void queryClient.invalidateQueries({ queryKey: keys.space(checkpoint.repo_id) });
  void queryClient.invalidateQueries({ queryKey: keys.spaces() });
}

export function useCommitCheckpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: commitCheckpoint,
    onSuccess: (checkpoint: Checkpoint) => savedCheckpoint(queryClient, checkpoint),
    onError: (_error, body) => {
      // A 409 means the line's HEAD moved: refresh what the form compares against.
      void queryClient.invalidateQueries({ queryKey: keys.space(body.repo_id) });
      void queryClient.invalidateQueries({ queryKey: keys.lines(body.repo_id) });
      void queryClient.invalidateQueries({ queryKey: keys.checkpoints(body.repo_id) });
    },
  });
}
