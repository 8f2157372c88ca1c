import { describe, expect, it } from "vitest";
import { fieldLabel } from "./field-label";

describe("fieldLabel", () => {
  it("says where in a Checkpoint a hit is, counting from 1", () => {
    expect(fieldLabel("summary")).toBe("Summary");
    expect(fieldLabel("decisions[2]")).toBe("Decision 3");
    expect(fieldLabel("tasks[0].text")).toBe("Task 1");
    expect(fieldLabel("entities[0].description")).toBe("Entity 1 · description");
    expect(fieldLabel("open_questions[1]")).toBe("Open question 2");
  });

  it("shows a field it does not know as it is", () => {
    expect(fieldLabel("content")).toBe("content");
    expect(fieldLabel("metadata.x")).toBe("metadata.x");
  });
});
