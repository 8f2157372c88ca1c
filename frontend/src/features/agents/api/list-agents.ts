import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** GET /v5/agents — the agent keys, newest first, revoked ones included (never a key itself). */
export async function listAgents() {
  const page = await unwrap(api.GET("/v5/agents", { params: { query: { limit: 200 } } }));
  return page.items;
}

export const agentsQuery = () => queryOptions({ queryKey: keys.agents(), queryFn: listAgents });

export function useAgents() {
  return useQuery(agentsQuery());
}
