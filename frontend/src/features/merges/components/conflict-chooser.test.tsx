import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { makeConflict } from "@/test/factories";
import type { Choice, MergeConflict } from "../types";
import { ConflictChooser } from "./conflict-chooser";

/** The chooser as the merge holds it: the choice lives above it. */
function Chooser({ conflict, seen }: { conflict: MergeConflict; seen: (c: Choice) => void }) {
  const [choice, setChoice] = useState<Choice | null>(null);
  return (
    <ConflictChooser
      conflict={conflict}
      choice={choice}
      onChoice={(next) => {
        seen(next);
        setChoice(next);
      }}
      oursName="main"
      theirsName="budget"
    />
  );
}

describe("the conflict chooser", () => {
  it("shows base, ours and theirs side by side, then the result of each choice", async () => {
    const user = userEvent.setup();
    const seen = vi.fn();
    render(<Chooser conflict={makeConflict()} seen={seen} />);
    const box = screen.getByTestId("merge-conflict");
    expect(screen.getByRole("group", { name: "Summary" })).toBe(box);
    expect(within(box).getByRole("region", { name: "Base" })).toHaveTextContent(
      "A trip to Lisbon.",
    );
    expect(within(box).getByRole("region", { name: "Ours (main)" })).toHaveTextContent(
      "A three-day trip to Lisbon.",
    );
    expect(within(box).getByRole("region", { name: "Theirs (budget)" })).toHaveTextContent(
      "A cheap trip to Lisbon.",
    );
    expect(screen.queryByTestId("conflict-result")).toBeNull();

    await user.click(screen.getByRole("radio", { name: "Theirs (budget)" }));
    expect(seen).toHaveBeenLastCalledWith({ kind: "theirs" });
    expect(screen.getByTestId("conflict-result")).toHaveTextContent("A cheap trip to Lisbon.");

    await user.click(screen.getByRole("radio", { name: "Both" }));
    expect(screen.getByTestId("conflict-result")).toHaveTextContent(
      "A three-day trip to Lisbon. A cheap trip to Lisbon.",
    );
  });

  it("edits in a text box prefilled with what the choice so far makes", async () => {
    const user = userEvent.setup();
    const seen = vi.fn();
    render(<Chooser conflict={makeConflict()} seen={seen} />);
    await user.click(screen.getByRole("radio", { name: "Both" }));
    await user.click(screen.getByRole("radio", { name: "Edit" }));
    const text = screen.getByRole("textbox", { name: "Your summary" });
    expect(text).toHaveValue("A three-day trip to Lisbon.\n\nA cheap trip to Lisbon.");
    await user.clear(text);
    await user.type(text, "A cheap three-day trip.");
    expect(seen).toHaveBeenLastCalledWith({ kind: "edit", value: "A cheap three-day trip." });
    expect(screen.getByRole("radio", { name: "Edit" })).toBeChecked();
  });

  it("offers no “both” for a task, says which side removed it, and edits text and done", async () => {
    const user = userEvent.setup();
    const seen = vi.fn();
    const task = makeConflict({
      field: "tasks",
      key: "Book hotel",
      base: { text: "Book hotel", done: false },
      ours: { text: "Book hotel", done: true },
      theirs: null,
    });
    render(<Chooser conflict={task} seen={seen} />);
    expect(screen.getByRole("group", { name: "Task “Book hotel”" })).toBeInTheDocument();
    expect(screen.getAllByRole("radio").map((r) => r.getAttribute("value"))).toEqual([
      "ours",
      "theirs",
      "edit",
    ]);
    expect(screen.getByRole("region", { name: "Theirs (budget)" })).toHaveTextContent("removed");
    // Done reads as a status (a badge), open as well; neither as strikethrough (issue 44 item 16).
    expect(screen.getByRole("region", { name: "Ours (main)" })).toHaveTextContent(
      "Book hotel ✓ done",
    );
    expect(screen.getByRole("region", { name: "Base" })).toHaveTextContent("Book hotel open");
    await user.click(screen.getByRole("radio", { name: "Theirs (budget)" }));
    expect(screen.getByTestId("conflict-result")).toHaveTextContent("the item goes");
    await user.click(screen.getByRole("radio", { name: "Edit" }));
    // Theirs removed it, so the edit starts from ours' task.
    expect(screen.getByRole("textbox", { name: "Your task" })).toHaveValue("Book hotel");
    const done = screen.getByRole("checkbox", { name: "Done" });
    expect(done).toBeChecked();
    await user.click(done);
    expect(seen).toHaveBeenLastCalledWith({
      kind: "edit",
      value: { text: "Book hotel", done: false },
    });
  });
});
