import { useMutation, useQueryClient } from "@tanstack/react-query";
import { authHeaders } from "@/api/auth";
import { ApiError, toApiError } from "@/api/client";
import { keys } from "@/api/keys";
import type { Space } from "@/api/models";

/** How far an import is: the upload's share sent, then the server checking and writing it. */
export type ImportProgress =
  | { phase: "uploading"; sent: number; total: number }
  | { phase: "checking" };

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * POST /v5/repos/import — a bundle file (docs/bundles.md) becomes a Space with its ids and
 * hashes. XMLHttpRequest, not fetch, because only it reports the upload's progress.
 */
export function importSpace(
  file: Blob,
  onProgress: (progress: ImportProgress) => void,
): Promise<Space> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/v5/repos/import");
    request.setRequestHeader("Content-Type", "application/x-ndjson");
    request.setRequestHeader("Accept", "application/json, application/problem+json");
    for (const [name, value] of Object.entries(authHeaders()))
      request.setRequestHeader(name, value);
    request.upload.onprogress = (event) =>
      onProgress({ phase: "uploading", sent: event.loaded, total: event.total || file.size });
    request.upload.onload = () => onProgress({ phase: "checking" });
    request.onload = () => {
      const body = parsed(request.responseText);
      if (request.status === 201) resolve(body as Space);
      else
        reject(toApiError(request.status, body, `${request.status} ${request.statusText}`.trim()));
    };
    request.onerror = () =>
      reject(
        new ApiError(0, "Could not reach the Smriti server. Check that it is running, then retry."),
      );
    request.send(file);
  });
}

export function useImportSpace(onProgress: (progress: ImportProgress) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: Blob) => importSpace(file, onProgress),
    onSuccess: (space) => {
      queryClient.setQueryData(keys.space(space.id), space);
      return queryClient.invalidateQueries({ queryKey: keys.spaces() });
    },
  });
}
