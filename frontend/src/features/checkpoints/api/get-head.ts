import { ApiError, api, unwrap } from "@/api/client";

/**
 * GET /v4/repos/{repo_id}/head — the HEAD Checkpoint of the Space (its default line), or of the
 * line `branch`; null when it has none (404).
 */
export async function getHead(spaceId: string, branch?: string | null) {
  try {
    return await unwrap(
      api.GET("/v4/repos/{repo_id}/head", {
        params: { path: { repo_id: spaceId }, query: branch ? { branch } : {} },
      }),
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
