import { describe, expect, it } from "vitest";
import { fullState } from "./items";
import { diffStates } from "./state-diff";

describe("diffStates (what comes in and what goes)", () => {
  it("lists what comes in, what goes and what changes, per field in the Checkpoint's order", () => {
    const before = fullState({
      summary: "A trip.",
      decisions: ["Stay in Baixa", "Rent a car"],
      tasks: [{ text: "Book hotel", done: false }],
      entities: [{ name: "Lisbon", kind: "city" }],
    });
    const after = fullState({
      summary: "A cheap trip.",
      decisions: ["Stay in Baixa", "Keep it under 900 EUR"],
      tasks: [
        { text: "Book hotel", done: true },
        { text: "Compare flights", done: false },
      ],
      entities: [{ name: "Lisbon", kind: "capital" }],
      artifacts: [{ name: "plan.md", content: "x".repeat(2048), media_type: "text/markdown" }],
    });
    const sections = diffStates(before, after);
    expect(sections.map((s) => s.field)).toEqual([
      "summary",
      "decisions",
      "tasks",
      "entities",
      "artifacts",
    ]);
    expect(Object.fromEntries(sections.map((s) => [s.field, s.lines]))).toEqual({
      summary: [
        { sign: "-", text: "A trip." },
        { sign: "+", text: "A cheap trip." },
      ],
      decisions: [
        { sign: "-", text: "Rent a car" },
        { sign: "+", text: "Keep it under 900 EUR" },
      ],
      tasks: [
        { sign: "+", text: "[ ] Compare flights" },
        { sign: "~", text: "Book hotel: open → done" },
      ],
      entities: [{ sign: "~", text: "Lisbon (city) → Lisbon (capital)" }],
      artifacts: [{ sign: "+", text: "plan.md (2.0 KB)" }],
    });
  });

  it("counts the same text twice as two items, and an unchanged state as no change", () => {
    const once = fullState({ decisions: ["Call"] });
    const twice = fullState({ decisions: ["Call", "Call"] });
    expect(diffStates(once, twice)).toEqual([
      { field: "decisions", title: "Decisions", lines: [{ sign: "+", text: "Call" }] },
    ]);
    expect(diffStates(twice, fullState({ decisions: ["Call", "Call"] }))).toEqual([]);
  });
});
