import { shortHash } from "@/lib/format";
import type { FoundHit } from "../api/search";
import { fieldLabel } from "./field-label";

type Earlier = FoundHit["earlier"][number];

/** Where a hit opens: a Checkpoint in its Space's panel, or a Turn scrolled to in its Session. */
export function hitHref(hit: FoundHit): string {
  if (hit.kind === "checkpoint") return checkpointHref(hit.repo_id, hit.commit_id ?? "");
  return `/spaces/${hit.repo_id}/sessions/${hit.session_id}?turn=${hit.sequence_number}`;
}

/** An older Checkpoint of a carried-forward item opens in the same Space's panel. */
export function earlierHref(hit: FoundHit, older: Earlier): string {
  return checkpointHref(hit.repo_id, older.commit_id);
}

function checkpointHref(spaceId: string, checkpointId: string): string {
  return `/spaces/${spaceId}?checkpoint=${checkpointId}`;
}

/** A hit named as the log and the Sessions list name it: a Checkpoint by its short hash and the
 * part that matched ("Checkpoint 8be6c6b · Decision 1"), a Turn by its number and its Session's
 * title ("Turn 3 · “Zoo chat”"). */
export function hitWhere(hit: FoundHit): string {
  if (hit.kind === "checkpoint") return checkpointWhere(hit.commit_hash ?? "", hit.field);
  const title = hit.session_title?.trim();
  return `Turn ${hit.sequence_number} · ${title ? `“${title}”` : "untitled Session"}`;
}

export function earlierWhere(older: Earlier): string {
  return checkpointWhere(older.commit_hash, older.field);
}

function checkpointWhere(hash: string, field: string): string {
  return `Checkpoint ${shortHash(hash)} · ${fieldLabel(field)}`;
}
