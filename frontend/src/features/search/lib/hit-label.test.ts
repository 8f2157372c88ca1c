import { describe, expect, it } from "vitest";
import type { FoundHit } from "../api/search";
import { earlierHref, earlierWhere, hitHref, hitWhere } from "./hit-label";

const base: FoundHit = {
  kind: "checkpoint",
  repo_id: "r1",
  commit_id: "c6",
  commit_hash: "8be6c6b9beea0123",
  session_id: null,
  session_title: null,
  sequence_number: null,
  field: "decisions[0]",
  snippet: "Take the zeppelin",
  highlights: [[9, 17]],
  rank: 0.1,
  earlier: [{ commit_id: "c5", commit_hash: "1e6c4d93aaaa", field: "decisions[1]" }],
};

describe("a hit's name and address", () => {
  it("names a Checkpoint by its short hash, as the log does", () => {
    expect(hitWhere(base)).toBe("Checkpoint 8be6c6b · Decision 1");
    expect(hitHref(base)).toBe("/spaces/r1?checkpoint=c6");
    const [older] = base.earlier;
    if (!older) throw new Error("no earlier Checkpoint");
    expect(earlierWhere(older)).toBe("Checkpoint 1e6c4d9 · Decision 2");
    expect(earlierHref(base, older)).toBe("/spaces/r1?checkpoint=c5");
  });

  it("names a Turn by its number and its Session's title", () => {
    const turn: FoundHit = {
      ...base,
      kind: "turn",
      commit_id: null,
      commit_hash: null,
      session_id: "s1",
      session_title: "Zoo chat",
      sequence_number: 3,
      field: "content",
      earlier: [],
    };
    expect(hitWhere(turn)).toBe("Turn 3 · “Zoo chat”");
    expect(hitHref(turn)).toBe("/spaces/r1/sessions/s1?turn=3");
    expect(hitWhere({ ...turn, session_title: "  " })).toBe("Turn 3 · untitled Session");
  });
});
