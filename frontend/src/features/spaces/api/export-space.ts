import { api, toApiError } from "@/api/client";

/** The file name the server suggests (`Content-Disposition`), or a plain one. */
function suggestedName(response: Response): string {
  const header = response.headers.get("content-disposition") ?? "";
  return /filename="([^"]+)"/.exec(header)?.[1] ?? "space.smriti.ndjson";
}

/**
 * GET /v5/repos/{repo_id}/export — the Space as a bundle (docs/bundles.md), saved as a file.
 * Fetched rather than linked so that the API token goes with it.
 */
export async function exportSpace(spaceId: string): Promise<string> {
  const { data, error, response } = await api.GET("/v5/repos/{repo_id}/export", {
    params: { path: { repo_id: spaceId } },
    parseAs: "blob",
  });
  if (!response.ok || error !== undefined || !(data instanceof Blob)) {
    throw toApiError(response.status, error, `${response.status} ${response.statusText}`.trim());
  }
  const name = suggestedName(response);
  const url = URL.createObjectURL(data);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  // The click has handed the blob to the download; the URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return name;
}
