import { type ReactNode, useRef } from "react";

/** A button that opens the file chooser (the input itself is hidden, and labelled for tests and
 * screen readers); the chosen file is handed on, and the same file can be chosen again. */
export function FileButton({
  label,
  accept,
  title,
  disabled,
  onFile,
  children,
}: {
  label: string;
  accept: string;
  title: string;
  disabled: boolean;
  onFile: (file: File) => void;
  children: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={accept}
        aria-label={label}
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = ""; // so that choosing it again after a failure fires again
          if (file) onFile(file);
        }}
      />
      <button
        type="button"
        className="btn small"
        disabled={disabled}
        title={title}
        onClick={() => input.current?.click()}
      >
        {children}
      </button>
    </>
  );
}
