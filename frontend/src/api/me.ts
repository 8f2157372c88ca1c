import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { keys } from "./keys";

/** GET /v5/me — who the server takes this app to be: the person, or an agent (a key's token). */
export async function getMe() {
  return unwrap(api.GET("/v5/me"));
}

/** Asked once; a new token refreshes every query (app/token-gate.tsx), this one with them. */
export const meQuery = () =>
  queryOptions({ queryKey: keys.me(), queryFn: getMe, staleTime: Infinity });

/**
 * Whether to show what only the person does (protect a line, agent keys). Shown until the answer
 * says otherwise: the server refuses an agent whatever the app shows, so this only spares an
 * agent's app buttons that would answer 403.
 */
export function useIsPerson(): boolean {
  return useQuery(meQuery()).data?.kind !== "agent";
}
