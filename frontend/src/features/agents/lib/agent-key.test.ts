import { describe, expect, it } from "vitest";
import {
  agentRequest,
  describeAccess,
  describeReach,
  emptyAgentForm,
  toggleSpace,
} from "./agent-key";

const names = new Map([
  ["s1", "Lisbon trip"],
  ["s2", "Storage migration"],
]);

describe("describeReach", () => {
  it("says every Space for a key with no list", () => {
    expect(describeReach(null, names)).toBe("every Space");
  });
  it("names the Spaces in the key's order, and a deleted one as such", () => {
    expect(describeReach(["s2", "gone", "s1"], names)).toBe(
      "Storage migration, a deleted Space, Lisbon trip",
    );
  });
  it("says no Space for an empty list rather than nothing", () => {
    expect(describeReach([], names)).toBe("no Space");
  });
});

describe("describeAccess", () => {
  it("tells a writing key from a read-only one", () => {
    expect(describeAccess({ write: true })).toBe("reads and writes");
    expect(describeAccess({ write: false })).toBe("read-only");
  });
});

describe("agentRequest", () => {
  it("asks for a name before anything else", () => {
    expect(agentRequest({ ...emptyAgentForm, name: "  ", every: true })).toEqual({
      missing: "Name the agent.",
    });
  });
  it("asks for Spaces when none is chosen and not every Space", () => {
    expect(agentRequest({ ...emptyAgentForm, name: "coder" })).toEqual({
      missing: "Choose the Spaces it may reach, or every Space.",
    });
  });
  it("sends null for every Space, whatever was ticked before", () => {
    expect(agentRequest({ name: " coder ", every: true, chosen: ["s1"], write: false })).toEqual({
      body: { name: "coder", spaces: null, write: false },
    });
  });
  it("sends the chosen Spaces", () => {
    expect(
      agentRequest({ name: "coder", every: false, chosen: ["s2", "s1"], write: true }),
    ).toEqual({ body: { name: "coder", spaces: ["s2", "s1"], write: true } });
  });
});

describe("toggleSpace", () => {
  it("adds a Space at the end and removes it again", () => {
    expect(toggleSpace(["s1"], "s2")).toEqual(["s1", "s2"]);
    expect(toggleSpace(["s1", "s2"], "s1")).toEqual(["s2"]);
  });
});
