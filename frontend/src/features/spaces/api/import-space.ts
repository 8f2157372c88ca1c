import { useMutation, useQueryClient } from "@tanstack/react-query";
import { keys } from "@/api/keys";
import type { Space } from "@/api/models";
import { type UploadProgress, uploadFile } from "@/lib/upload";

/** POST /v5/repos/import — a bundle file (docs/bundles.md) becomes a Space with its ids and hashes. */
export function importSpace(file: Blob, onProgress: (progress: UploadProgress) => void) {
  return uploadFile<Space>("/v5/repos/import", file, "application/x-ndjson", onProgress);
}

export function useImportSpace(onProgress: (progress: UploadProgress) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: Blob) => importSpace(file, onProgress),
    onSuccess: (space) => {
      queryClient.setQueryData(keys.space(space.id), space);
      return queryClient.invalidateQueries({ queryKey: keys.spaces() });
    },
  });
}
