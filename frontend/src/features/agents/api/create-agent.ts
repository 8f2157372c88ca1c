import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { AgentCreate } from "@/api/v5";

/** POST /v5/agents — a new agent key; its answer is the only place the key itself is shown. */
export async function createAgent(body: AgentCreate) {
  return unwrap(api.POST("/v5/agents", { body }));
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAgent,
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.agents() }),
  });
}
