import { describe, expect, it } from "vitest";
import { forkTitle, sessionTitle } from "./title";

describe("Session names", () => {
  it("name an untitled Session by a short date", () => {
    const now = new Date("2026-12-05T12:00:00");
    const created = new Date("2026-12-01T18:04:00").toISOString();
    expect(sessionTitle({ title: "  ", created_at: created }, now)).toBe(
      "Untitled · Dec 1, 6:04 PM",
    );
    expect(sessionTitle({ title: "Lisbon", created_at: created }, now)).toBe("Lisbon");
    // A new one until its first message titles it (on the server).
    expect(sessionTitle({ title: "", created_at: created, turn_count: 0 }, now)).toBe(
      "New Session",
    );
    expect(sessionTitle({ title: "", created_at: created, turn_count: 2 }, now)).toBe(
      "Untitled · Dec 1, 6:04 PM",
    );
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
