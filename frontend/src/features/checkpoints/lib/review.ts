import type { Finding, FindingKind, ItemField } from "@/api/v5";

export const findingLabels: Record<FindingKind, string> = {
  contradiction: "Contradiction",
  hidden_assumption: "Hidden assumption",
  resolved_question: "Resolved question",
  disconnected_entity: "Disconnected entity",
};

export const itemKey = (field: ItemField, index: number) => `${field}:${index}`;

export interface PlacedFindings {
  /** Each finding under the first item it points at ("decisions:0"). */
  byItem: Map<string, Finding[]>;
  /** Findings that point at no item of this Checkpoint: shown in the review summary instead. */
  unplaced: Finding[];
}

/**
 * Where each finding is shown: once, next to the first item it points at. A contradiction
 * between two decisions used to be shown next to both and again in the summary — three times
 * for one finding; its other items are named in the note instead.
 */
export function placeFindings(
  findings: readonly Finding[],
  counts: Readonly<Record<ItemField, number>>,
): PlacedFindings {
  const byItem = new Map<string, Finding[]>();
  const unplaced: Finding[] = [];
  for (const finding of findings) {
    const ref = finding.refs.find((r) => r.index >= 0 && r.index < counts[r.field]);
    if (!ref) {
      unplaced.push(finding);
      continue;
    }
    const key = itemKey(ref.field, ref.index);
    byItem.set(key, [...(byItem.get(key) ?? []), finding]);
  }
  return { byItem, unplaced };
}

/** "3 findings: Contradiction, Hidden assumption × 2". */
export function findingCounts(findings: readonly Finding[]): string {
  const counts = new Map<FindingKind, number>();
  for (const f of findings) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  const parts = [...counts].map(([kind, n]) => {
    const label = findingLabels[kind] ?? kind;
    return n > 1 ? `${label} × ${n}` : label;
  });
  return `${findings.length} ${findings.length === 1 ? "finding" : "findings"}: ${parts.join(", ")}`;
}
