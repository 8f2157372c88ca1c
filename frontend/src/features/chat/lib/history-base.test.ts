import { describe, expect, it } from "vitest";
import { makeTurn, makeTurns } from "@/test/factories";
import { isInContext, lastSentMount, mountFields, mountOf } from "./history-base";

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

describe("the mount a message was sent with", () => {
  it("is a Checkpoint with a boundary; a base alone is not a mount", () => {
    expect(mountOf({ checkpoint_id: "cp", history_base_seq: 0 })).toEqual({
      checkpointId: "cp",
      historyBaseSeq: 0,
    });
    expect(mountOf({ checkpoint_id: "base", history_base_seq: null })).toBeNull();
    expect(mountOf({ checkpoint_id: null, history_base_seq: null })).toBeNull();
  });

  it("is the last message's, not an earlier one's", () => {
    const mounted = { checkpoint_id: "cp", history_base_seq: 2 };
    const turns = [
      ...makeTurns(2),
      makeTurn({ sequence_number: 3, role: "user", ...mounted }),
      makeTurn({ sequence_number: 4, role: "assistant", ...mounted }),
    ];
    expect(lastSentMount(turns)).toEqual({ checkpointId: "cp", historyBaseSeq: 2 });
    // A message sent after it without a mount: the Session's last message has none.
    expect(lastSentMount([...turns, ...makeTurns(2, 5)])).toBeNull();
    expect(lastSentMount([])).toBeNull();
  });
});
