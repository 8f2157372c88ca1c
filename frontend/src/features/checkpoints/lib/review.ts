import type { Finding, FindingKind, ItemField } from "@/api/v5";

export const findingLabels: Record<FindingKind, string> = {
  contradiction: "Contradiction",
  hidden_assumption: "Hidden assumption",
  resolved_question: "Resolved question",
  disconnected_entity: "Disconnected entity",
};

/** Findings indexed by the item they point at ("decisions:0"), for showing them next to it. */
export function indexFindings(findings: readonly Finding[]): Map<string, Finding[]> {
  const byItem = new Map<string, Finding[]>();
  for (const finding of findings) {
    for (const ref of finding.refs) {
      const key = itemKey(ref.field, ref.index);
      byItem.set(key, [...(byItem.get(key) ?? []), finding]);
    }
  }
  return byItem;
}

export const itemKey = (field: ItemField, index: number) => `${field}:${index}`;
