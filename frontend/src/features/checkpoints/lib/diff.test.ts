import { describe, expect, it } from "vitest";
import { makeDiff } from "@/test/factories";
import { diffSections, diffStats } from "./diff";

describe("diffSections", () => {
  it("lists only changed fields, in the Checkpoint's order, removed before added", () => {
    const sections = diffSections(
      makeDiff({
        message: { changed: true, before: "Plan", after: "Plan v2" },
        decisions: { added: ["Use SQLite"], removed: ["Use PostgreSQL"] },
        tasks: {
          added: [{ text: "Ship", done: false }],
          removed: [],
          changed: [{ text: "Write tests", before_done: false, after_done: true }],
        },
        entities: {
          added: [],
          removed: [],
          changed: [
            {
              name: "DB",
              before: { name: "DB", kind: "database" },
              after: { name: "DB", kind: "service" },
            },
          ],
        },
        artifacts: {
          added: [{ name: "plan.md", media_type: "text/markdown", size: 2048 }],
          removed: [],
          changed: [],
        },
      }),
    );
    expect(sections.map((s) => s.field)).toEqual([
      "message",
      "decisions",
      "tasks",
      "entities",
      "artifacts",
    ]);
    expect(sections[0]?.lines).toEqual([
      { sign: "-", text: "Plan" },
      { sign: "+", text: "Plan v2" },
    ]);
    expect(sections[1]?.lines).toEqual([
      { sign: "-", text: "Use PostgreSQL" },
      { sign: "+", text: "Use SQLite" },
    ]);
    expect(sections[2]?.lines).toEqual([
      { sign: "+", text: "[ ] Ship" },
      { sign: "~", text: "Write tests: open → done" },
    ]);
    expect(sections[3]?.lines[0]).toEqual({ sign: "~", text: "DB (database) → DB (service)" });
    expect(sections[4]?.lines[0]).toEqual({ sign: "+", text: "plan.md (2.0 KB)" });
    expect(diffStats(sections)).toEqual({ added: 4, removed: 2, changed: 2 });
  });

  it("is empty for identical Checkpoints", () => {
    expect(diffSections(makeDiff({ identical: true }))).toEqual([]);
  });
});
