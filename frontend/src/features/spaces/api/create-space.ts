import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { SpaceCreate } from "@/api/models";

/** POST /v4/repos — create a Space. */
export async function createSpace(body: SpaceCreate) {
  return unwrap(api.POST("/v4/repos", { body }));
}

export function useCreateSpace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSpace,
    onSuccess: (space) => {
      queryClient.setQueryData(keys.space(space.id), space);
      return queryClient.invalidateQueries({ queryKey: keys.spaces() });
    },
  });
}
