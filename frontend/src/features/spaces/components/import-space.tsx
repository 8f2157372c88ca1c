import { useState } from "react";
import { useLocation } from "wouter";
import { FailureNotice } from "@/components/feedback";
import { FileButton } from "@/components/file-button";
import { type UploadProgress, uploadProgressText } from "@/lib/upload";
import { useImportSpace } from "../api/import-space";

/** Import a Space from a bundle file made by Export (or `smriti export`). */
export function ImportSpace() {
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const importing = useImportSpace(setProgress);
  const [, navigate] = useLocation();

  return (
    <div className="import-space">
      <FileButton
        label="Bundle file to import"
        accept=".ndjson,application/x-ndjson"
        title="A bundle from Export or `smriti export`: every hash is checked before anything is written"
        disabled={importing.isPending}
        onFile={(file) => {
          setProgress(null);
          importing.mutate(file, { onSuccess: (space) => navigate(`/spaces/${space.id}`) });
        }}
      >
        Import a Space…
      </FileButton>
      {importing.isPending && (
        <span className="muted" role="status" data-testid="import-progress">
          {uploadProgressText(progress, "Checking every hash, then writing…")}
        </span>
      )}
      <FailureNotice error={importing.error} />
    </div>
  );
}
