import { describe, expect, it } from "vitest";
import { defaultSessionTitle, forkTitle, sessionTitle } from "./title";

describe("Session names", () => {
  it("start short and readable, and never repeat one in the list", () => {
    expect(defaultSessionTitle([])).toBe("Session 1");
    expect(defaultSessionTitle([{ title: "Trip" }, { title: "" }])).toBe("Session 3");
    expect(defaultSessionTitle([{ title: "Session 2" }])).toBe("Session 3");
  });

  it("name an untitled Session by a short date", () => {
    const now = new Date("2026-12-05T12:00:00");
    const created = new Date("2026-12-01T18:04:00").toISOString();
    expect(sessionTitle({ title: "  ", created_at: created }, now)).toBe(
      "Untitled · Dec 1, 6:04 PM",
    );
    expect(sessionTitle({ title: "Lisbon", created_at: created }, now)).toBe("Lisbon");
  });
});

describe("forkTitle", () => {
  it("names the origin and the last Checkpoint only, however long the chain", () => {
    const hash = "983fd11aaaaaaaa";
    expect(forkTitle("Trip", hash)).toBe("Trip (fork from 983fd11)");
    expect(forkTitle("Trip (fork from e715824)", hash)).toBe("Trip (fork from 983fd11)");
    expect(forkTitle("Trip (fork from e715824) (fork from 0000000)", hash)).toBe(
      "Trip (fork from 983fd11)",
    );
    expect(forkTitle("  ", hash)).toBe("Session (fork from 983fd11)");
    expect(forkTitle("A (fork from me)", hash)).toBe("A (fork from me) (fork from 983fd11)");
  });
});
