import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** GET /v4/providers — each provider, whether it is configured (and why not), its models. */
export async function listProviders() {
  return unwrap(api.GET("/v4/providers"));
}

export const providersQuery = () =>
  queryOptions({ queryKey: keys.providers(), queryFn: listProviders, staleTime: 5 * 60_000 });

export function useProviders() {
  return useQuery(providersQuery());
}
