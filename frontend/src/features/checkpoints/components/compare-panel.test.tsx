import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { makeCheckpoint } from "@/test/factories";
import { ComparePanel } from "./compare-panel";

const asked: [string | null, string | null][] = [];
vi.mock("../api/diff-checkpoints", () => ({
  useCheckpointDiff: (from: string | null, to: string | null) => {
    asked.push([from, to]);
    return { isLoading: false, error: null, data: undefined };
  },
}));

const a = makeCheckpoint("a", { message: "First" });
const b = makeCheckpoint("b", { message: "Second", parent_commit_id: "a" });
const c = makeCheckpoint("c", { message: "Third", parent_commit_id: "b" });
const all = [c, b, a];

function show(selectedId: string | null, from: string | null = null, to: string | null = null) {
  asked.length = 0;
  render(
    <ComparePanel
      checkpoints={all}
      fromId={from}
      toId={to}
      headId="c"
      selectedId={selectedId}
      onChange={() => {}}
    />,
  );
  return {
    from: screen.getByRole("combobox", { name: "Compare from" }),
    to: screen.getByRole("combobox", { name: "Compare to" }),
  };
}

describe("Compare", () => {
  it("compares HEAD's parent with HEAD when nothing is chosen", () => {
    const { from, to } = show(null);
    expect(from).toHaveValue("b");
    expect(to).toHaveValue("c");
    expect(asked.at(-1)).toEqual(["b", "c"]);
  });

  it("compares the selected Checkpoint with its parent", () => {
    const { from, to } = show("b");
    expect(from).toHaveValue("a");
    expect(to).toHaveValue("b");
  });

  it("keeps what the person chose", () => {
    const { from, to } = show("b", "a", "c");
    expect(from).toHaveValue("a");
    expect(to).toHaveValue("c");
  });
});
