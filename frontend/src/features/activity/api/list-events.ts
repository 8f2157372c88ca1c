import { useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";

const PAGE = 50;

/** What the activity view shows: anyone's changes or one actor's, of any type or one. */
export interface EventFilters {
  /** "" anyone, "human" the person, else an agent key's id. */
  actor: string;
  /** "" any type, else one of SYSTEM.md §14's. */
  type: string;
}

/** GET /v5/repos/{repo_id}/events?order=newest — a Space's events, newest first, a page at a time
 * down through `next_before`. */
export function useSpaceEvents(spaceId: string, { actor, type }: EventFilters) {
  return useInfiniteQuery({
    queryKey: keys.eventPages(spaceId, actor, type),
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET("/v5/repos/{repo_id}/events", {
          params: {
            path: { repo_id: spaceId },
            query: {
              order: "newest",
              limit: PAGE,
              ...(pageParam === null ? {} : { before: pageParam }),
              ...(actor ? { actor } : {}),
              ...(type ? { type: [type] } : {}),
            },
          },
          signal,
        }),
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.next_before ?? undefined,
  });
}
