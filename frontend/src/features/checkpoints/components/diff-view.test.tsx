import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { makeDiff } from "@/test/factories";
import { DiffView } from "./diff-view";

describe("DiffView", () => {
  it("renders each changed field with removed, added and changed lines", () => {
    render(
      <DiffView
        diff={makeDiff({
          decisions: { added: ["Use SQLite"], removed: ["Use PostgreSQL"] },
          open_questions: { added: [], removed: ["Branching?"] },
          metadata_changed: true,
        })}
      />,
    );
    const decisions = screen.getByRole("region", { name: "Decisions" });
    const lines = within(decisions).getAllByRole("listitem");
    expect(lines.map((l) => l.className)).toEqual(["diff-line removed", "diff-line added"]);
    expect(lines[0]).toHaveTextContent("removed: Use PostgreSQL");
    expect(lines[1]).toHaveTextContent("added: Use SQLite");
    expect(screen.getByRole("region", { name: "Open questions" })).toHaveTextContent("Branching?");
    expect(screen.getByRole("region", { name: "Metadata" })).toHaveTextContent("Metadata changed");
    expect(screen.queryByRole("region", { name: "Tasks" })).not.toBeInTheDocument();
    expect(screen.getByText("+1 added")).toBeInTheDocument();
    expect(screen.getByText("−2 removed")).toBeInTheDocument();
  });

  it("says so when two Checkpoints hold identical state", () => {
    render(<DiffView diff={makeDiff({ identical: true })} />);
    expect(screen.getByTestId("diff-identical")).toHaveTextContent("identical state");
    expect(screen.queryByTestId("diff")).not.toBeInTheDocument();
  });
});
