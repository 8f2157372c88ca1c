import { ApiError, api, unwrap } from "@/api/client";

/** GET /v4/repos/{repo_id}/head — the HEAD Checkpoint, or null when the Space has none (404). */
export async function getHead(spaceId: string) {
  try {
    return await unwrap(
      api.GET("/v4/repos/{repo_id}/head", { params: { path: { repo_id: spaceId } } }),
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
