import { describe, expect, it } from "vitest";
import type { Finding } from "@/api/v5";
import { findingCounts, placeFindings } from "./review";

const counts = { decisions: 2, assumptions: 1, tasks: 0, open_questions: 0, entities: 1 };
const contradiction: Finding = {
  kind: "contradiction",
  detail: "Decision 1 contradicts decision 2.",
  refs: [
    { field: "decisions", index: 0 },
    { field: "decisions", index: 1 },
  ],
  source: "rules",
};

describe("placeFindings", () => {
  it("puts a finding that points at several items under the first one only", () => {
    const { byItem, unplaced } = placeFindings([contradiction], counts);
    const shown = [...byItem.values()].flat();
    expect(shown).toEqual([contradiction]);
    expect(byItem.get("decisions:0")).toEqual([contradiction]);
    expect(byItem.has("decisions:1")).toBe(false);
    expect(unplaced).toEqual([]);
  });

  it("keeps findings that point at no item of the Checkpoint for the summary", () => {
    const loose: Finding = { ...contradiction, refs: [{ field: "tasks", index: 3 }] };
    const none: Finding = { ...contradiction, refs: [] };
    const { byItem, unplaced } = placeFindings([loose, none], counts);
    expect(byItem.size).toBe(0);
    expect(unplaced).toEqual([loose, none]);
  });

  it("counts findings by kind", () => {
    const hidden: Finding = { ...contradiction, kind: "hidden_assumption" };
    expect(findingCounts([contradiction, hidden, hidden])).toBe(
      "3 findings: Contradiction, Hidden assumption × 2",
    );
  });
});
