import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { makeCheckpoint } from "@/test/factories";
import { formFromCheckpoint } from "../lib/form";
import { ParentDiff } from "./parent-diff";

describe("the Save form's changes against its parent", () => {
  it("says in words what goes, not only with a minus sign", () => {
    const parent = makeCheckpoint("aaa1111", { decisions: ["Fly on Friday", "Car"] });
    const values = formFromCheckpoint(parent, "");
    render(
      <ParentDiff
        parent={parent}
        parentValues={values}
        values={{ ...values, decisions: ["Fly on Friday"] }}
      />,
    );
    const summary = screen.getByText(/^Changes against/);
    expect(summary).toHaveTextContent("+0 −1 ~0");
    expect(screen.getByText("+0 −1 ~0")).toHaveAttribute("aria-hidden", "true");
    expect(summary).toHaveTextContent("0 added, 1 removed, 0 changed");
    expect(screen.getByRole("region", { name: "Decisions" })).toHaveTextContent("removed: Car");
  });
});
