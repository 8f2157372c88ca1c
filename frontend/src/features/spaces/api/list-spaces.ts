import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

/** GET /v4/repos — Spaces, most recently changed first. */
export async function listSpaces() {
  return unwrap(api.GET("/v4/repos", { params: { query: { limit: 200, offset: 0 } } }));
}

export const spacesQuery = () => queryOptions({ queryKey: keys.spaces(), queryFn: listSpaces });

export function useSpaces() {
  return useQuery(spacesQuery());
}
