/** What a copy came to, and how a Copy button says it. */
export type CopyStatus = "idle" | "copied" | "failed";

export const copyLabels: Record<CopyStatus, string> = {
  idle: "Copy",
  copied: "Copied",
  failed: "Copy failed",
};

/** Copies `text`; resolves to how it went (no clipboard, as on plain http, is a failure). */
export async function copyText(text: string): Promise<"copied" | "failed"> {
  const clipboard = navigator.clipboard;
  if (!clipboard) return "failed";
  try {
    await clipboard.writeText(text);
    return "copied";
  } catch {
    return "failed";
  }
}
