import type { QueryClient } from "@tanstack/react-query";
import { keys } from "@/api/keys";
import type { Session } from "@/api/models";

/** A Session just started (or forked) has no Turn yet: cache it as such, and list it. */
export function cacheNewSession(queryClient: QueryClient, spaceId: string, session: Session) {
  queryClient.setQueryData(keys.session(session.id), session);
  queryClient.setQueryData(keys.turns(session.id), []);
  return queryClient.invalidateQueries({ queryKey: keys.sessions(spaceId) });
}
