import { useEffect, useRef, useState } from "react";
import { type CopyStatus, copyLabels, copyText } from "@/lib/clipboard";

/** Copies `text()` to the clipboard and says so for a moment. */
export function CopyButton({
  text,
  label,
  className = "btn small",
}: {
  /** Called on click, so a large text (the whole context) is built only when it is copied. */
  text: () => string;
  /** The accessible name ("Copy message"); the visible text says Copy / Copied. */
  label: string;
  className?: string;
}) {
  const [status, setStatus] = useState<CopyStatus>("idle");
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const show = (next: CopyStatus) => {
    setStatus(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setStatus("idle"), 1500);
  };
  const copy = () => {
    copyText(text()).then(show);
  };
  return (
    <button type="button" className={className} aria-label={label} onClick={copy}>
      {copyLabels[status]}
    </button>
  );
}
