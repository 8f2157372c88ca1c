import { memo } from "react";
import { renderMarkdown } from "@/lib/markdown";

/** Renders Markdown (sanitised by DOMPurify) with highlighted code blocks. */
export const Markdown = memo(function Markdown({
  source,
  className,
}: {
  source: string;
  className?: string;
}) {
  return (
    <div
      className={className ? `markdown ${className}` : "markdown"}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML is sanitised by DOMPurify in renderMarkdown.
      dangerouslySetInnerHTML={{ __html: renderMarkdown(source) }}
    />
  );
});
