import { describe, expect, it } from "vitest";
import { defaultSessionTitle, sessionTitle } from "./title";

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
