import { describe, expect, it } from "vitest";
import type { SpaceEvent } from "@/api/models";
import { describeEvent, EVENT_TYPES } from "./describe";

const planner: SpaceEvent["actor"] = { kind: "agent", name: "planner", id: "a1" };
const person: SpaceEvent["actor"] = { kind: "human", name: "person" };

const say = (type: string, data: Record<string, unknown>, actor = planner) =>
  describeEvent({ type, data, actor });

describe("the sentence of an event", () => {
  it("names the agent, what it saved and on which line", () => {
    expect(
      say("checkpoint.created", {
        message: "Pick Baixa\n\nbecause it is central",
        branch: "planner",
      }),
    ).toBe("agent planner saved 'Pick Baixa' on line planner");
    expect(say("checkpoint.created", { message: "detached", branch: null }, person)).toBe(
      "the person saved 'detached'",
    );
  });

  it("says what happened to a proposal, with its number and lines", () => {
    const data = { number: 3, from: "planner", into: "main" };
    expect(say("proposal.opened", data)).toBe("agent planner opened proposal #3 planner → main");
    expect(say("proposal.merged", data, person)).toBe(
      "the person merged proposal #3 planner → main",
    );
    expect(say("proposal.closed", data)).toBe("agent planner closed proposal #3 planner → main");
    expect(say("proposal.updated", data)).toBe("agent planner updated proposal #3 planner → main");
  });

  it("tells line changes apart", () => {
    expect(say("line.created", { name: "x" })).toBe("agent planner made line x");
    expect(say("line.deleted", { name: "Y" })).toBe("agent planner deleted line Y");
    expect(say("line.updated", { name: "b", old_name: "a" })).toBe(
      "agent planner renamed line a to b",
    );
    expect(say("line.updated", { name: "b", is_default: true })).toBe(
      "agent planner made line b the default",
    );
    expect(say("line.updated", { name: "b", protected: true })).toBe(
      "agent planner protected line b",
    );
    expect(say("line.updated", { name: "b", protected: false })).toBe(
      "agent planner unprotected line b",
    );
  });

  it("covers Spaces, Sessions and Turns", () => {
    expect(say("space.created", { name: "Lisbon" })).toBe("agent planner created Space 'Lisbon'");
    expect(say("space.deleted", { name: "Lisbon" })).toBe("agent planner deleted Space 'Lisbon'");
    expect(say("session.created", { forked_from: null })).toBe("agent planner started a Session");
    expect(say("session.created", { forked_from: "s1" })).toBe("agent planner forked a Session");
    expect(say("turns.added", { from_seq: 3, to_seq: 4, stopped: false })).toBe(
      "agent planner added 2 Turns to a Session",
    );
    expect(say("turns.added", { from_seq: 5, to_seq: 5, stopped: true })).toBe(
      "agent planner added a Turn to a Session (stopped)",
    );
  });

  it("cuts a long message and still speaks of a type it does not know", () => {
    const sentence = say("checkpoint.created", { message: "m".repeat(500), branch: "main" });
    expect(sentence.length).toBeLessThan(100);
    expect(sentence).toContain("…'");
    expect(say("space.exploded", {})).toBe("agent planner made a change (space.exploded)");
  });

  it("has a sentence for every type SYSTEM.md §14 lists", () => {
    expect(EVENT_TYPES).toHaveLength(15);
    for (const type of EVENT_TYPES) expect(say(type, {})).not.toContain("made a change");
  });
});
