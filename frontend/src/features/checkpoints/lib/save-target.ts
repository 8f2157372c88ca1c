import type { Checkpoint, Line } from "@/api/models";
import { layoutLanes, orderLines } from "./lanes";

/**
 * The line a save from `parentId` continues: a line whose HEAD it is (the default line first),
 * else the line whose history holds it, else the default line. Null when the Space has no line.
 */
export function homeLine(
  parentId: string | null,
  lines: readonly Line[],
  checkpoints: readonly Checkpoint[],
): Line | null {
  const ordered = orderLines(lines);
  if (parentId === null) return ordered[0] ?? null;
  const atHead = ordered.find((l) => l.head_commit_id === parentId);
  if (atHead) return atHead;
  const owner = layoutLanes(checkpoints, lines).rows.find((r) => r.node.id === parentId)?.line;
  return ordered.find((l) => l.name === owner) ?? ordered[0] ?? null;
}

/** A name for a new line started at a Checkpoint, not yet taken (names are unique ignoring case). */
export function suggestLineName(
  checkpoint: Pick<Checkpoint, "commit_hash">,
  lines: readonly Line[],
) {
  const taken = new Set(lines.map((l) => l.name.toLowerCase()));
  const base = `from-${checkpoint.commit_hash.slice(0, 7)}`;
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${base}-${n}`;
  return name;
}
