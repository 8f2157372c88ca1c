import { describe, expect, it } from "vitest";
import { makeTurns } from "@/test/factories";
import { computeHistoryBaseSeq, isInContext, mountCheckpoint, mountFields } from "./history-base";

describe("computeHistoryBaseSeq", () => {
  it("is 0 for an empty Session", () => {
    expect(computeHistoryBaseSeq([])).toBe(0);
  });

  it("is the highest sequence_number after sends", () => {
    const afterThreeSends = makeTurns(6);
    expect(computeHistoryBaseSeq(afterThreeSends)).toBe(6);
  });

  it("takes the maximum, not the last element or the count", () => {
    expect(
      computeHistoryBaseSeq([
        { sequence_number: 9 },
        { sequence_number: 4 },
        { sequence_number: 7 },
      ]),
    ).toBe(9);
    // A Session whose first page was not loaded: the count would be 2, the boundary is 12.
    expect(computeHistoryBaseSeq(makeTurns(2, 11))).toBe(12);
  });

  it("moves the boundary to the new end on remount", () => {
    const turns = makeTurns(6);
    const first = mountCheckpoint("cp-1", turns);
    expect(first).toEqual({ checkpointId: "cp-1", historyBaseSeq: 6 });

    const afterTwoMoreSends = [...turns, ...makeTurns(4, 7)];
    // The existing mount keeps its boundary while sending...
    expect(first.historyBaseSeq).toBe(6);
    // ...and remounting (same or another Checkpoint) recomputes it from what the app holds now.
    expect(mountCheckpoint("cp-1", afterTwoMoreSends).historyBaseSeq).toBe(10);
    expect(mountCheckpoint("cp-2", afterTwoMoreSends)).toEqual({
      checkpointId: "cp-2",
      historyBaseSeq: 10,
    });
  });
});

describe("isInContext", () => {
  it("keeps every Turn when nothing is mounted", () => {
    expect(makeTurns(4).every((t) => isInContext(t, null))).toBe(true);
  });

  it("keeps only Turns strictly above the boundary", () => {
    const mount = { checkpointId: "cp", historyBaseSeq: 4 };
    const inContext = makeTurns(6)
      .filter((t) => isInContext(t, mount))
      .map((t) => t.sequence_number);
    expect(inContext).toEqual([5, 6]);
  });
});

describe("mountFields", () => {
  it("sends nothing when unmounted and both fields when mounted", () => {
    expect(mountFields(null)).toEqual({});
    expect(mountFields({ checkpointId: "cp", historyBaseSeq: 0 })).toEqual({
      checkpoint_id: "cp",
      history_base_seq: 0,
    });
  });
});
