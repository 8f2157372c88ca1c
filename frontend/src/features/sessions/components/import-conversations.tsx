import { useState } from "react";
import { FailureNotice } from "@/components/feedback";
import { FileButton } from "@/components/file-button";
import { plural } from "@/lib/format";
import { type UploadProgress, uploadProgressText } from "@/lib/upload";
import { type ConversationImport, useImportConversations } from "../api/import-conversations";

const SOURCES: Record<ConversationImport["format"], string> = {
  chatgpt: "ChatGPT",
  claude: "Claude",
  claude_code: "Claude Code",
  open_webui: "Open WebUI",
};

const LEFT_OUT: [keyof ConversationImport["sessions"][number]["left_out"], string, string][] = [
  ["tool_calls", "tool call", "tool calls"],
  ["thinking", "piece of reasoning", "pieces of reasoning"],
  ["hidden", "hidden message", "hidden messages"],
  ["branches", "message on other branches", "messages on other branches"],
  ["images", "image", "images"],
  ["attachments", "attachment", "attachments"],
];

/** What the imported Sessions left out, summed: "Left out: 3 tool calls, 1 image." ("" for nothing). */
function leftOutText(result: ConversationImport): string {
  const parts = LEFT_OUT.flatMap(([field, one, many]) => {
    const count = result.sessions.reduce((sum, session) => sum + session.left_out[field], 0);
    return count > 0 ? [plural(count, one, many)] : [];
  });
  return parts.length > 0 ? `Left out: ${parts.join(", ")}.` : "";
}

/**
 * Bring in conversations from elsewhere as Sessions of this Space: a ChatGPT or Claude data export
 * (the ZIP it downloads as, or its conversations.json), an Open WebUI chat export or a Claude Code
 * session (.jsonl).
 */
export function ImportConversations({ spaceId }: { spaceId: string }) {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const importing = useImportConversations(spaceId, setProgress);

  const result = importing.data;
  const leftOut = result ? leftOutText(result) : "";

  return (
    <div className="import-conversations">
      <FileButton
        label="Conversations file to import"
        accept=".json,.zip,.jsonl,application/json,application/zip"
        title="A ChatGPT or Claude data export (its ZIP or conversations.json), an Open WebUI chat export or a Claude Code session (.jsonl): one Session per conversation"
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
            Imported {plural(result.sessions.length, "conversation")} from {SOURCES[result.format]}.
          </p>
          {leftOut && <p className="muted">{leftOut}</p>}
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
