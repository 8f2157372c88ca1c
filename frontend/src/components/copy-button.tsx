import { useEffect, useRef, useState } from "react";

type Status = "idle" | "copied" | "failed";

const labels: Record<Status, string> = { idle: "Copy", copied: "Copied", failed: "Copy failed" };

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
  const [status, setStatus] = useState<Status>("idle");
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const show = (next: Status) => {
    setStatus(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setStatus("idle"), 1500);
  };
  const copy = () => {
    const clipboard = navigator.clipboard;
    if (!clipboard) return show("failed");
    clipboard.writeText(text()).then(
      () => show("copied"),
      () => show("failed"),
    );
  };
  return (
    <button type="button" className={className} aria-label={label} onClick={copy}>
      {labels[status]}
    </button>
  );
}
