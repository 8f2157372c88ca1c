import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { MergePreview } from "../types";

/**
 * GET /v5/repos/{repo_id}/merge?ours=&theirs= — theirs merged into ours, three-way against their
 * nearest common ancestor; nothing is saved. `ours` and `theirs` are line names (or refs).
 */
export async function previewMerge(spaceId: string, ours: string, theirs: string) {
  return unwrap(
    api.GET("/v5/repos/{repo_id}/merge", {
      params: { path: { repo_id: spaceId }, query: { ours, theirs } },
    }),
  );
}

export const mergePreviewKey = (spaceId: string, ours: string, theirs: string) =>
  ["merge-preview", spaceId, ours, theirs] as const;

/**
 * Asked once when the merge opens, and again only on purpose (the person's choices belong to
 * this run: a preview that changed behind their back would move the conflicts under them).
 */
export const mergePreviewQuery = (spaceId: string, ours: string, theirs: string) =>
  queryOptions({
    queryKey: mergePreviewKey(spaceId, ours, theirs),
    queryFn: () => previewMerge(spaceId, ours, theirs),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  });

/** `known`: a preview the page already has (a proposal's own), so it is not asked for twice. */
export function useMergePreview(
  spaceId: string,
  ours: string,
  theirs: string,
  known?: MergePreview | null,
) {
  return useQuery({
    ...mergePreviewQuery(spaceId, ours, theirs),
    ...(known ? { initialData: known } : {}),
    enabled: ours !== "" && theirs !== "" && ours !== theirs,
  });
}
