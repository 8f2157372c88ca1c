import type { Checkpoint, Line, Session, Turn } from "@/api/models";
import type { components } from "@/api/schema";
import type { CheckpointDiff } from "@/api/v5";

type MergePreview = components["schemas"]["MergePreview"];
type MergeConflict = components["schemas"]["ConflictingItem"];

/** Turns 1..count of one Session, alternating user and assistant, like a real Session. */
export function makeTurns(count: number, start = 1, extra: Partial<Turn> = {}): Turn[] {
  return Array.from({ length: count }, (_, i) => {
    const seq = start + i;
    return {
      session_id: "00000000-0000-4000-8000-000000000001",
      sequence_number: seq,
      role: seq % 2 === 1 ? "user" : "assistant",
      content: `Turn number ${seq}`,
      provider: "offline",
      model: "offline-1",
      checkpoint_id: null,
      history_base_seq: null,
      input_tokens: null,
      output_tokens: null,
      request_id: null,
      created_at: "2026-01-01T00:00:00Z",
      created_by: null,
      ...extra,
    };
  });
}

/** One Turn, patched by the test. */
export function makeTurn(extra: Partial<Turn> & { sequence_number: number }): Turn {
  const [turn] = makeTurns(1, extra.sequence_number);
  if (!turn) throw new Error("makeTurns(1) made no Turn");
  return { ...turn, ...extra };
}

/** A diff with nothing changed, patched by the test. */
export function makeDiff(patch: Partial<CheckpointDiff> = {}): CheckpointDiff {
  const list = { added: [], removed: [] };
  return {
    from_commit_id: "a",
    to_commit_id: "b",
    identical: false,
    message: { changed: false, before: "Plan", after: "Plan" },
    summary: { changed: false, before: "", after: "" },
    decisions: list,
    assumptions: list,
    open_questions: list,
    tasks: { added: [], removed: [], changed: [] },
    entities: { added: [], removed: [], changed: [] },
    artifacts: { added: [], removed: [], changed: [] },
    metadata_changed: false,
    ...patch,
  };
}

/** A Checkpoint with nothing in it but its message, patched by the test. */
export function makeCheckpoint(id: string, patch: Partial<Checkpoint> = {}): Checkpoint {
  return {
    id,
    repo_id: "space",
    parent_commit_id: null,
    merge_parent_id: null,
    commit_hash: `${id}${"0".repeat(Math.max(0, 64 - id.length))}`,
    message: `Checkpoint ${id}`,
    summary: "",
    decisions: [],
    assumptions: [],
    tasks: [],
    open_questions: [],
    entities: [],
    artifacts: [],
    metadata: {},
    created_at: "2026-01-01T00:00:00Z",
    ...patch,
  };
}

/** A line, patched by the test. */
export function makeLine(name: string, head: string | null, patch: Partial<Line> = {}): Line {
  return {
    name,
    head_commit_id: head,
    // A hash made from the id's hex digits: stable, and different for different heads.
    head_commit_hash:
      head === null
        ? null
        : head
            .replace(/[^0-9a-f]/g, "")
            .padEnd(64, "0")
            .slice(0, 64),
    is_default: false,
    protected: false,
    created_by: null,
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    ...patch,
  };
}

/** A conflict of a merge preview: the summary's unless patched. */
export function makeConflict(patch: Partial<MergeConflict> = {}): MergeConflict {
  return {
    field: "summary",
    key: null,
    occurrence: 0,
    base: "A trip to Lisbon.",
    ours: "A three-day trip to Lisbon.",
    theirs: "A cheap trip to Lisbon.",
    ...patch,
  };
}

/**
 * A merge preview: docs/merge.md's worked example (main ← budget, one conflict on the summary)
 * unless patched. `clean` follows the conflicts given.
 */
export function makeMergePreview(patch: Partial<MergePreview> = {}): MergePreview {
  const conflicts = patch.conflicts ?? [makeConflict()];
  return {
    base_commit_id: "base",
    base_candidates: ["base"],
    ours_commit_id: "ours",
    theirs_commit_id: "theirs",
    relation: "diverged",
    merged: {
      summary: "A three-day trip to Lisbon.",
      decisions: ["Stay in Baixa", "Day 3: Sintra", "Keep it under 900 EUR"],
      assumptions: [],
      tasks: [
        { text: "Book hotel", done: true },
        { text: "Compare flights", done: false },
      ],
      open_questions: [],
      entities: [],
      artifacts: [],
    },
    clean: conflicts.length === 0,
    rivals: [],
    ...patch,
    conflicts,
  };
}

/** A Session with no base, no lineage and nothing saved from it, patched by the test. */
export function makeSession(id: string, patch: Partial<Session> = {}): Session {
  return {
    id,
    repo_id: "space",
    title: "Trip",
    base_commit_id: null,
    base_commit_hash: null,
    forked_from: null,
    last_saved: null,
    continued_in: [],
    continued_count: 0,
    provider: null,
    model: null,
    turn_count: 0,
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    usage: { input_tokens: 0, output_tokens: 0, uncounted_replies: 0 },
    created_by: null,
    ...patch,
  };
}
