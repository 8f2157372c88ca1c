import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { SpaceUpdate } from "@/api/models";

/** PATCH /v4/repos/{repo_id} — rename or describe a Space. */
export async function updateSpace(spaceId: string, body: SpaceUpdate) {
  return unwrap(api.PATCH("/v4/repos/{repo_id}", { params: { path: { repo_id: spaceId } }, body }));
}

export function useUpdateSpace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ spaceId, body }: { spaceId: string; body: SpaceUpdate }) =>
      updateSpace(spaceId, body),
    onSuccess: (space) => {
      queryClient.setQueryData(keys.space(space.id), space);
      return queryClient.invalidateQueries({ queryKey: keys.spaces() });
    },
  });
}
