import { describe, expect, it } from "vitest";
import { layoutGraph } from "./graph";

const node = (id: string, parent: string | null) => ({ id, parent_commit_id: parent });

describe("layoutGraph", () => {
  it("keeps a straight line in one lane", () => {
    const layout = layoutGraph([node("c", "b"), node("b", "a"), node("a", null)]);
    expect(layout.lanes).toBe(1);
    expect(layout.rows.map((r) => r.lane)).toEqual([0, 0, 0]);
    expect(layout.rows[2]?.below).toEqual([]);
  });

  it("shows divergent lines side by side and joins them at the shared parent", () => {
    // a ← b ← d (HEAD), a ← c: c forked from a.
    const layout = layoutGraph([node("d", "b"), node("c", "a"), node("b", "a"), node("a", null)]);
    expect(layout.lanes).toBe(2);
    const lanes = Object.fromEntries(layout.rows.map((r) => [r.node.id, r.lane]));
    expect(lanes.d).toBe(0);
    expect(lanes.c).toBe(1);
    expect(lanes.b).toBe(0);
    expect(lanes.a).toBe(0);
    // Above a, both lanes wait for a: they converge on its dot.
    expect(layout.rows[3]?.above).toEqual(["a", "a"]);
  });
});
