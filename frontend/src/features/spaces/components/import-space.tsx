import { type ChangeEvent, useRef, useState } from "react";
import { useLocation } from "wouter";
import { FailureNotice } from "@/components/feedback";
import { type ImportProgress, useImportSpace } from "../api/import-space";

function progressText(progress: ImportProgress | null): string {
  if (progress === null) return "Importing…";
  if (progress.phase === "checking") return "Checking every hash, then writing…";
  const share = progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  return `Uploading ${share}%…`;
}

/** Import a Space from a bundle file made by Export (or `smriti export`). */
export function ImportSpace() {
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const importing = useImportSpace(setProgress);
  const [, navigate] = useLocation();

  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ""; // the same file can be chosen again after a failure
    if (!file) return;
    setProgress(null);
    importing.mutate(file, { onSuccess: (space) => navigate(`/spaces/${space.id}`) });
  };

  return (
    <div className="import-space">
      <input
        ref={input}
        type="file"
        accept=".ndjson,application/x-ndjson"
        aria-label="Bundle file to import"
        hidden
        onChange={chosen}
      />
      <button
        type="button"
        className="btn small"
        disabled={importing.isPending}
        title="A bundle from Export or `smriti export`: every hash is checked before anything is written"
        onClick={() => input.current?.click()}
      >
        Import a Space…
      </button>
      {importing.isPending && (
        <span className="muted" role="status" data-testid="import-progress">
          {progressText(progress)}
        </span>
      )}
      <FailureNotice error={importing.error} />
    </div>
  );
}
