import { describe, expect, it } from "vitest";
import { nextFocus } from "./arrow-focus";

describe("nextFocus", () => {
  it("goes down from the box through the results and stops at the last", () => {
    expect(nextFocus(-1, 3, "ArrowDown")).toBe(0);
    expect(nextFocus(1, 3, "ArrowDown")).toBe(2);
    expect(nextFocus(2, 3, "ArrowDown")).toBe(2);
  });

  it("goes up to the box from the first result", () => {
    expect(nextFocus(2, 3, "ArrowUp")).toBe(1);
    expect(nextFocus(0, 3, "ArrowUp")).toBe(-1);
    expect(nextFocus(-1, 3, "ArrowUp")).toBe(-1);
  });

  it("moves nowhere without results, and ignores other keys", () => {
    expect(nextFocus(-1, 0, "ArrowDown")).toBeNull();
    expect(nextFocus(0, 3, "Enter")).toBeNull();
    expect(nextFocus(0, 3, "ArrowLeft")).toBeNull();
  });
});
