import type { QueryClient } from "@tanstack/react-query";
import { checkpointsQuery } from "@/features/checkpoints";
import { providersQuery } from "@/features/providers";
import { turnsQuery } from "@/features/sessions";
import { spaceQuery } from "@/features/spaces";

/**
 * Starts the requests the first screen needs before React renders, so a long Session's Turns
 * are already on their way while the app boots (and ahead of the other panels' requests).
 */
export function prefetchRoute(queryClient: QueryClient, pathname: string) {
  const match = /^\/spaces\/([^/]+)(?:\/sessions\/([^/]+))?\/?$/.exec(pathname);
  if (!match?.[1]) return;
  const [, spaceId, sessionId] = match;
  if (sessionId)
    void queryClient.prefetchQuery(turnsQuery(queryClient, decodeURIComponent(sessionId)));
  void queryClient.prefetchQuery(spaceQuery(decodeURIComponent(spaceId)));
  void queryClient.prefetchQuery(checkpointsQuery(decodeURIComponent(spaceId)));
  if (sessionId) void queryClient.prefetchQuery(providersQuery());
}
