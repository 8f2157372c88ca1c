import { useMutation, useQueryClient } from "@tanstack/react-query";
import { keys } from "@/api/keys";
import type { components } from "@/api/schema";
import { type UploadProgress, uploadFile } from "@/lib/upload";

export type ConversationImport = components["schemas"]["ConversationImportResult"];

/** What a file is sent as, by its name; the server tells the kinds apart by their content anyway. */
export function importMediaType(file: Blob): string {
  const name = file instanceof File ? file.name.toLowerCase() : "";
  if (name.endsWith(".zip")) return "application/zip";
  if (name.endsWith(".jsonl")) return "application/x-ndjson";
  return "application/json";
}

/**
 * POST /v5/repos/{repo_id}/import/conversations — a ChatGPT or Claude data export (its ZIP or
 * conversations.json), an Open WebUI chat export or a Claude Code session becomes one Session per
 * conversation; those it cannot read, or that the Space already holds, come back in `skipped`,
 * with the reason.
 */
export function importConversations(
  spaceId: string,
  file: Blob,
  onProgress: (progress: UploadProgress) => void,
) {
  return uploadFile<ConversationImport>(
    `/v5/repos/${encodeURIComponent(spaceId)}/import/conversations`,
    file,
    importMediaType(file),
    onProgress,
  );
}

export function useImportConversations(
  spaceId: string,
  onProgress: (progress: UploadProgress) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: Blob) => importConversations(spaceId, file, onProgress),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: keys.sessions(spaceId) }),
        queryClient.invalidateQueries({ queryKey: keys.space(spaceId) }),
      ]),
  });
}
