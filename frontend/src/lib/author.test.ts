import { describe, expect, it } from "vitest";
import { agentCreator, authorLabel, authorNote, checkpointAuthorship, readAuthor } from "./author";

describe("readAuthor", () => {
  it("reads an agent the server vouches for, with its key's id", () => {
    expect(readAuthor({ kind: "agent", id: "k1", name: "coder" })).toEqual({
      kind: "agent",
      id: "k1",
      name: "coder",
    });
  });
  it("takes both wire spellings of the person, and drops an id a person's author carries", () => {
    expect(readAuthor({ kind: "human", name: "Ana" })).toEqual({
      kind: "person",
      id: null,
      name: "Ana",
    });
    expect(readAuthor({ kind: "person", id: "x" })).toEqual({
      kind: "person",
      id: null,
      name: null,
    });
  });
  it("reads nothing from what is not an object, and a blank name as none", () => {
    expect(readAuthor(null)).toBeNull();
    expect(readAuthor("coder")).toBeNull();
    expect(readAuthor([{ kind: "agent" }])).toBeNull();
    expect(readAuthor({ kind: "agent", name: "  " })).toEqual({
      kind: "agent",
      id: null,
      name: null,
    });
  });
});

describe("checkpointAuthorship", () => {
  it("shows what the client claimed when the server put its agent in its place", () => {
    const made = checkpointAuthorship({
      author: { kind: "agent", id: "k1", name: "coder" },
      claimed_author: { kind: "human", name: "Ana" },
    });
    expect(made.author?.name).toBe("coder");
    expect(made.claimed).toEqual({ kind: "person", id: null, name: "Ana" });
  });
  it("hides a claim equal to the author (an agent that named itself)", () => {
    const made = checkpointAuthorship({
      author: { kind: "agent", id: "k1", name: "coder" },
      claimed_author: { kind: "agent", name: "coder" },
    });
    expect(made.claimed).toBeNull();
  });
  it("shows a claim that names another agent", () => {
    const made = checkpointAuthorship({
      author: { kind: "agent", id: "k1", name: "coder" },
      claimed_author: { kind: "agent", name: "reviewer" },
    });
    expect(made.claimed?.name).toBe("reviewer");
  });
  it("has no author for metadata without one", () => {
    expect(checkpointAuthorship({})).toEqual({ author: null, claimed: null });
  });
});

describe("authorLabel and authorNote", () => {
  it("names an agent as one, and the unnamed person as you", () => {
    expect(authorLabel({ kind: "agent", id: "k1", name: "coder" })).toBe("agent coder");
    expect(authorLabel({ kind: "person", id: null, name: "Ana" })).toBe("Ana");
    expect(authorLabel({ kind: "person", id: null, name: null })).toBe("you");
  });
  it("says whether the server vouches for an agent's name", () => {
    expect(authorNote({ kind: "agent", id: "k1", name: "coder" })).toContain("server vouches");
    expect(authorNote({ kind: "agent", id: null, name: "coder" })).toContain("not made with");
  });
});

describe("agentCreator", () => {
  it("names the agent in created_by, and nobody for the person or an answer without it", () => {
    expect(agentCreator({ created_by: { kind: "agent", id: "k1", name: "coder" } })?.name).toBe(
      "coder",
    );
    expect(agentCreator({ created_by: null })).toBeNull();
    expect(agentCreator({ created_by: { kind: "person" } })).toBeNull();
    expect(agentCreator({ name: "main" })).toBeNull();
  });
});
