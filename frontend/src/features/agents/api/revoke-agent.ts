import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** DELETE /v5/agents/{agent_id} — revoke a key: within a second every request with it is a 401. */
export async function revokeAgent(agentId: string) {
  await unwrap(api.DELETE("/v5/agents/{agent_id}", { params: { path: { agent_id: agentId } } }));
}

export function useRevokeAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeAgent,
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.agents() }),
  });
}
