import { authHeaders } from "@/api/auth";
import { ApiError, toApiError } from "@/api/client";

/** How far an upload is: the share of the file sent, then the server reading it. */
export type UploadProgress =
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
 * POSTs a file as the body and resolves with the JSON answer on 201. XMLHttpRequest, not fetch,
 * because only it reports an upload's progress.
 */
export function uploadFile<T>(
  url: string,
  file: Blob,
  contentType: string,
  onProgress: (progress: UploadProgress) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", url);
    request.setRequestHeader("Content-Type", contentType);
    request.setRequestHeader("Accept", "application/json, application/problem+json");
    for (const [name, value] of Object.entries(authHeaders()))
      request.setRequestHeader(name, value);
    request.upload.onprogress = (event) =>
      onProgress({ phase: "uploading", sent: event.loaded, total: event.total || file.size });
    request.upload.onload = () => onProgress({ phase: "checking" });
    request.onload = () => {
      const body = parsed(request.responseText);
      if (request.status === 201) resolve(body as T);
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

/** The progress of an upload in words; `checking` says what the server does meanwhile. */
export function uploadProgressText(progress: UploadProgress | null, checking: string): string {
  if (progress === null) return "Starting…";
  if (progress.phase === "checking") return checking;
  const share = progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  return `Uploading ${share}%…`;
}
