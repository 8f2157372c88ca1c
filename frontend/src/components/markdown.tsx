import { type MouseEvent, memo } from "react";
import { copyLabels, copyText } from "@/lib/clipboard";
import { renderMarkdown, renderStreamingMarkdown } from "@/lib/markdown";

/**
 * Renders Markdown (sanitised by DOMPurify) with highlighted code blocks; `streaming` for text
 * still arriving: rendered afresh each time, code left plain until the text is complete.
 */
export const Markdown = memo(function Markdown({
  source,
  className,
  streaming = false,
}: {
  source: string;
  className?: string;
  streaming?: boolean;
}) {
  const html = streaming ? renderStreamingMarkdown(source) : renderMarkdown(source);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: delegates clicks of the real <button>s inside (copy code).
    // biome-ignore lint/a11y/useKeyWithClickEvents: the buttons are keyboard-operable; Enter and Space click them.
    <div
      className={className ? `markdown ${className}` : "markdown"}
      onClick={copyCode}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML is sanitised by DOMPurify in renderMarkdown.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
});

/** The "Copy" button of a code block: copies the block's text and says so for a moment. */
function copyCode(event: MouseEvent<HTMLDivElement>) {
  const button = (event.target as Element).closest?.("button.copy-code");
  if (!(button instanceof HTMLButtonElement)) return;
  const code = button.parentElement?.querySelector("code")?.textContent ?? "";
  copyText(code).then((status) => {
    button.textContent = copyLabels[status];
    window.setTimeout(() => {
      button.textContent = copyLabels.idle;
    }, 1500);
  });
}
