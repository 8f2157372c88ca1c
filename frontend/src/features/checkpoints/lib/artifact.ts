import type { Artifact } from "@/api/models";

/** The file extension as a highlight.js language name ("md" for "notes.md"), if any. */
export function languageOf(name: string): string | undefined {
  const ext = name.split(".").pop()?.toLowerCase();
  return ext && ext !== name.toLowerCase() ? ext : undefined;
}

/** Markdown by its media type (text/markdown, text/x-markdown) or its name (.md, .markdown). */
export function isMarkdown(artifact: Pick<Artifact, "name" | "media_type">): boolean {
  if (artifact.media_type && /markdown/i.test(artifact.media_type)) return true;
  return /\.(md|markdown|mdown|mkd)$/i.test(artifact.name.trim());
}
