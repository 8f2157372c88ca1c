import { useMutation, useQueryClient } from "@tanstack/react-query";
import { keys } from "@/api/keys";
import type { components } from "@/api/schema";
import { type UploadProgress, uploadFile } from "@/lib/upload";

export type ConversationImport = components["schemas"]["ConversationImportResult"];

/**
 * POST /v5/repos/{repo_id}/import/conversations — a ChatGPT or Claude data export's
 * conversations.json becomes one Session per conversation; those it cannot read come back in
 * `skipped`, with the reason.
 */
export function importConversations(
  spaceId: string,
  file: Blob,
  onProgress: (progress: UploadProgress) => void,
) {
  return uploadFile<ConversationImport>(
    `/v5/repos/${encodeURIComponent(spaceId)}/import/conversations`,
    file,
    "application/json",
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
