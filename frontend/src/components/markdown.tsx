import { type MouseEvent, memo } from "react";
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
    // biome-ignore lint/a11y/noStaticElementInteractions: delegates clicks of the real <button>s inside (copy code).
    // biome-ignore lint/a11y/useKeyWithClickEvents: the buttons are keyboard-operable; Enter and Space click them.
    <div
      className={className ? `markdown ${className}` : "markdown"}
      onClick={copyCode}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML is sanitised by DOMPurify in renderMarkdown.
      dangerouslySetInnerHTML={{ __html: renderMarkdown(source) }}
    />
  );
});

/** The "Copy" button of a code block: copies the block's text and says so for a moment. */
function copyCode(event: MouseEvent<HTMLDivElement>) {
  const button = (event.target as Element).closest?.("button.copy-code");
  if (!(button instanceof HTMLButtonElement)) return;
  const code = button.parentElement?.querySelector("code")?.textContent ?? "";
  const done = (label: string) => {
    button.textContent = label;
    window.setTimeout(() => {
      button.textContent = "Copy";
    }, 1500);
  };
  navigator.clipboard?.writeText(code).then(
    () => done("Copied"),
    () => done("Copy failed"),
  );
}
