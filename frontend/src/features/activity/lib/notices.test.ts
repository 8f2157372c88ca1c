import { describe, expect, it } from "vitest";
import type { SpaceEvent } from "@/api/models";
import {
  isSomeoneElses,
  MAX_NOTICES,
  NO_NOTICES,
  viewerOf,
  withNotice,
  withoutNotice,
} from "./notices";

const event = (id: number, actor: SpaceEvent["actor"]): SpaceEvent => ({
  id,
  type: "line.deleted",
  at: "2026-01-01T00:00:00Z",
  repo_id: "r",
  actor,
  data: { name: `l${id}` },
});
const planner = { kind: "agent" as const, name: "planner", id: "a1" };
const person = { kind: "human" as const, name: "person" };

describe("who gets a notice", () => {
  it("the person hears of an agent's change, never of their own", () => {
    const viewer = viewerOf({ kind: "person" });
    expect(isSomeoneElses(event(1, planner), viewer)).toBe(true);
    expect(isSomeoneElses(event(2, person), viewer)).toBe(false);
    expect(isSomeoneElses(event(3, planner), undefined)).toBe(true); // before /v5/me answers
  });

  it("an agent's app hears of everyone but itself", () => {
    const viewer = viewerOf({ kind: "agent", id: "a1" });
    expect(isSomeoneElses(event(1, planner), viewer)).toBe(false);
    expect(isSomeoneElses(event(2, { ...planner, id: "a2" }), viewer)).toBe(true);
    expect(isSomeoneElses(event(3, person), viewer)).toBe(true);
  });
});

describe("the pile of notices", () => {
  it("keeps the newest few on top and counts the rest", () => {
    let notices = NO_NOTICES;
    for (let id = 1; id <= 10; id++) notices = withNotice(notices, event(id, planner));
    expect(notices.shown.map((n) => n.id)).toEqual([10, 9, 8]);
    expect(notices.shown).toHaveLength(MAX_NOTICES);
    expect(notices.more).toBe(7);
    expect(notices.shown[0]?.text).toBe("agent planner deleted line l10");
  });

  it("forgets the count once the last shown notice goes", () => {
    let notices = withNotice(withNotice(NO_NOTICES, event(1, planner)), event(2, planner));
    notices = withoutNotice(notices, 2);
    expect(notices.shown.map((n) => n.id)).toEqual([1]);
    expect(withoutNotice(notices, 1)).toEqual(NO_NOTICES);
  });
});
