import type { Checkpoint } from "@/api/models";
import { type Authorship, checkpointAuthorship } from "@/lib/author";
import { isRecord } from "@/lib/is-record";

/** What Smriti records in a Checkpoint's metadata, read defensively (metadata is free JSON). */
export function authorshipOf(checkpoint: Pick<Checkpoint, "metadata">): Authorship {
  return checkpointAuthorship(checkpoint.metadata);
}

export function draftedByOf(
  checkpoint: Pick<Checkpoint, "metadata">,
): { provider: string; model: string } | null {
  const d = checkpoint.metadata.drafted_by;
  if (!isRecord(d) || typeof d.provider !== "string") return null;
  return { provider: d.provider, model: typeof d.model === "string" ? d.model : "" };
}

export function sourceOf(
  checkpoint: Pick<Checkpoint, "metadata">,
): { session_id: string; from_seq: number; to_seq: number } | null {
  const s = checkpoint.metadata.source;
  if (!isRecord(s) || typeof s.from_seq !== "number" || typeof s.to_seq !== "number") return null;
  return { session_id: String(s.session_id ?? ""), from_seq: s.from_seq, to_seq: s.to_seq };
}
