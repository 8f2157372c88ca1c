import { useState } from "react";
import { FailureNotice } from "@/components/feedback";
import { FileButton } from "@/components/file-button";
import { plural } from "@/lib/format";
import { type UploadProgress, uploadProgressText } from "@/lib/upload";
import { useImportConversations } from "../api/import-conversations";

/** Bring in a ChatGPT or Claude data export (its conversations.json) as Sessions of this Space. */
export function ImportConversations({ spaceId }: { spaceId: string }) {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const importing = useImportConversations(spaceId, setProgress);

  const result = importing.data;

  return (
    <div className="import-conversations">
      <FileButton
        label="Conversations file to import"
        accept=".json,application/json"
        title="conversations.json from a ChatGPT or Claude data export: one Session per conversation"
        disabled={importing.isPending}
        onFile={(file) => {
          setProgress(null);
          importing.mutate(file);
        }}
      >
        Import conversations…
      </FileButton>
      {importing.isPending && (
        <p className="muted" role="status">
          {uploadProgressText(progress, "Reading the conversations…")}
        </p>
      )}
      <FailureNotice error={importing.error} />
      {result && (
        <div className="import-result" role="status">
          <p>
            Imported {plural(result.sessions.length, "conversation")} from{" "}
            {result.format === "chatgpt" ? "ChatGPT" : "Claude"}.
          </p>
          {result.skipped.length > 0 && (
            <details>
              <summary>{plural(result.skipped.length, "conversation")} skipped</summary>
              <ul>
                {result.skipped.map((skipped, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: titles repeat; the list never reorders
                  <li key={index}>
                    <strong>{skipped.title}</strong>: {skipped.reason}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </div>
  );
}
