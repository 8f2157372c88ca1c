import { describe, expect, it } from "vitest";
import { layoutLanes, orderLines } from "./lanes";

const node = (id: string, parent: string | null, mergeParent: string | null = null) => ({
  id,
  parent_commit_id: parent,
  merge_parent_id: mergeParent,
});
const line = (name: string, head: string | null, isDefault = false) => ({
  name,
  head_commit_id: head,
  is_default: isDefault,
});
const lanesById = (layout: ReturnType<typeof layoutLanes>) =>
  Object.fromEntries(layout.rows.map((r) => [r.node.id, r.lane]));

describe("layoutLanes", () => {
  it("keeps one line in one lane, its HEAD labelled", () => {
    const layout = layoutLanes(
      [node("c", "b"), node("b", "a"), node("a", null)],
      [line("main", "c", true)],
    );
    expect(layout.lanes).toEqual(["main"]);
    expect(layout.rows.map((r) => r.lane)).toEqual([0, 0, 0]);
    expect(layout.rows[0]?.heads).toEqual(["main"]);
    expect(layout.rows.map((r) => r.line)).toEqual(["main", "main", "main"]);
    expect(layout.edges.map((e) => [e.fromRow, e.toRow])).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });

  it("puts the default line first, whatever order the lines come in", () => {
    // a ← b (idea), a ← c (main, default), c newest.
    const checkpoints = [node("c", "a"), node("b", "a"), node("a", null)];
    const layout = layoutLanes(checkpoints, [line("idea", "b"), line("main", "c", true)]);
    expect(layout.lanes).toEqual(["main", "idea"]);
    expect(lanesById(layout)).toEqual({ c: 0, b: 1, a: 0 });
    // The shared parent belongs to the default line; idea's lane joins it there.
    const join = layout.edges.find((e) => e.key === "b>a");
    expect(join).toEqual({
      key: "b>a",
      fromRow: 1,
      fromLane: 1,
      toRow: 2,
      toLane: 0,
      merge: false,
    });
    expect(orderLines([line("z", null), line("a", null, true)]).map((l) => l.name)).toEqual([
      "a",
      "z",
    ]);
  });

  it("gives a line started at another line's Checkpoint no lane until it has its own", () => {
    const checkpoints = [node("b", "a"), node("a", null)];
    const layout = layoutLanes(checkpoints, [line("main", "b", true), line("alt", "a")]);
    expect(layout.lanes).toEqual(["main"]);
    expect(layout.rows[1]?.heads).toEqual(["alt"]);
    expect(layout.rows[1]?.line).toBe("main");
  });

  it("labels every line whose HEAD a Checkpoint is, default first", () => {
    const layout = layoutLanes([node("a", null)], [line("b-line", "a"), line("main", "a", true)]);
    expect(layout.rows[0]?.heads).toEqual(["main", "b-line"]);
  });

  it("draws Checkpoints no line reaches in lanes after the lines', reusing a lane once free", () => {
    // main: d ← a. Unowned: x ← a (a deleted line), then later y ← ... no parent in the list.
    const checkpoints = [node("d", "a"), node("x", "a"), node("a", null), node("y", null)];
    const layout = layoutLanes(checkpoints, [line("main", "d", true)]);
    expect(layout.lanes).toEqual(["main", null]);
    expect(lanesById(layout)).toEqual({ d: 0, x: 1, a: 0, y: 1 });
    expect(layout.rows[1]?.line).toBeNull();
  });

  it("opens a second unowned lane while the first is still in use", () => {
    const checkpoints = [node("p", "a"), node("q", "a"), node("a", null)];
    const layout = layoutLanes(checkpoints, []);
    expect(layout.lanes).toEqual([null, null]);
    expect(lanesById(layout)).toEqual({ p: 0, q: 1, a: 0 });
  });

  it("handles a Space with no Checkpoint", () => {
    expect(layoutLanes([], [line("main", null, true)])).toEqual({ rows: [], edges: [], lanes: [] });
  });

  it("draws a merge's second edge, from the merge into the merged line's lane", () => {
    // a ← b (main) ← m (main, merges t); a ← t (budget).
    const checkpoints = [node("m", "b", "t"), node("t", "a"), node("b", "a"), node("a", null)];
    const layout = layoutLanes(checkpoints, [line("main", "m", true), line("budget", "t")]);
    expect(layout.lanes).toEqual(["main", "budget"]);
    expect(lanesById(layout)).toEqual({ m: 0, t: 1, b: 0, a: 0 });
    const merges = layout.edges.filter((e) => e.merge);
    expect(merges).toEqual([
      { key: "m>>t", fromRow: 0, fromLane: 0, toRow: 1, toLane: 1, merge: true },
    ]);
    // Both parents are joined: m to b (first parent) and m to t (merged in).
    expect(layout.edges.filter((e) => e.fromRow === 0).map((e) => e.key)).toEqual(["m>b", "m>>t"]);
  });

  it("keeps a merged Checkpoint's lane free from the merge down, when its line is gone", () => {
    // main: m ← x ← a, m merges t; t's line was deleted after the merge. u (a deleted line's,
    // off x) is done with its lane before t's row, but m's edge runs down that lane from row 0.
    const checkpoints = [
      node("m", "x", "t"),
      node("u", "x"),
      node("x", "a"),
      node("t", "a"),
      node("a", null),
    ];
    const layout = layoutLanes(checkpoints, [line("main", "m", true)]);
    const lanes = lanesById(layout);
    expect(lanes.m).toBe(0);
    expect(lanes.t).not.toBe(lanes.u);
    expect(layout.lanes).toEqual(["main", null, null]);
    const merge = layout.edges.find((e) => e.merge);
    expect(merge?.toLane).toBe(lanes.t);
  });

  it("leaves out a merge edge to a Checkpoint not in the list", () => {
    const layout = layoutLanes([node("m", null, "gone")], [line("main", "m", true)]);
    expect(layout.edges).toEqual([]);
  });
});
