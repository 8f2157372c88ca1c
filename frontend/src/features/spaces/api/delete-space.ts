import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** DELETE /v4/repos/{repo_id} — delete a Space with its Sessions, Turns and Checkpoints. */
export async function deleteSpace(spaceId: string) {
  await unwrap(api.DELETE("/v4/repos/{repo_id}", { params: { path: { repo_id: spaceId } } }));
}

export function useDeleteSpace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSpace,
    onSuccess: (_, spaceId) => {
      queryClient.removeQueries({ queryKey: keys.space(spaceId) });
      queryClient.removeQueries({ queryKey: keys.sessions(spaceId) });
      queryClient.removeQueries({ queryKey: keys.checkpoints(spaceId) });
      return queryClient.invalidateQueries({ queryKey: keys.spaces() });
    },
  });
}
