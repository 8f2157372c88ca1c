import { QueryClient, QueryClientProvider, useMutation } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Checkpoint, RestoreRequest } from "@/api/models";
import { makeCheckpoint, makeDiff, makeLine } from "@/test/factories";
import { RestoreDialog } from "./restore-dialog";

const restoreFn = vi.fn<(input: { ref: string; body: RestoreRequest }) => Promise<Checkpoint>>();

vi.mock("../api/restore-checkpoint", () => ({
  useRestoreCheckpoint: () =>
    useMutation({ mutationFn: (input: { ref: string; body: RestoreRequest }) => restoreFn(input) }),
}));
// The line's HEAD ("Budget") against the restored state ("Lisbon plan"), as the server diffs them.
vi.mock("../api/diff-checkpoints", () => ({
  useCheckpointDiff: () => ({
    isPending: false,
    data: makeDiff({
      message: { changed: true, before: "Budget", after: "Lisbon plan" },
      decisions: { added: ["Fly on Friday"], removed: [] },
    }),
  }),
}));

beforeAll(() => {
  // jsdom has no modal dialogs.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

const source = makeCheckpoint("aaa1111", { message: "Lisbon plan" });
const head = makeCheckpoint("bbb2222", { message: "Budget", parent_commit_id: "aaa1111" });

function show() {
  restoreFn.mockReset();
  restoreFn.mockResolvedValue(makeCheckpoint("ccc3333"));
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RestoreDialog
        spaceId="space"
        source={source}
        lines={[makeLine("main", "bbb2222", { is_default: true })]}
        checkpoints={[head, source]}
        onClose={() => {}}
        onRestored={() => {}}
      />
    </QueryClientProvider>,
  );
  const dialog = screen.getByRole("dialog", { name: "Restore this state" });
  const added = () =>
    within(within(dialog).getByRole("region", { name: "Message" }))
      .getAllByText(/./, { selector: ".diff-line.added .diff-text" })
      .map((line) => line.textContent);
  return { dialog, added, box: within(dialog).getByRole("textbox", { name: "Message" }) };
}

describe("RestoreDialog", () => {
  it("names in its diff the message it saves, as typed or by default", {
    timeout: 15_000,
  }, async () => {
    const { dialog, added, box } = show();
    // Not the restored Checkpoint's message: the new one's.
    expect(box).toHaveValue("Restore “Lisbon plan”");
    expect(added()).toEqual(["Restore “Lisbon plan”"]);
    expect(within(dialog).getByText("Fly on Friday")).toBeInTheDocument();

    fireEvent.change(box, { target: { value: "  Back to the Lisbon plan " } });
    expect(added()).toEqual(["Back to the Lisbon plan"]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Restore on main" }));
    await waitFor(() => expect(restoreFn).toHaveBeenCalledTimes(1));
    expect(restoreFn.mock.calls.at(-1)?.[0].body.message).toBe("Back to the Lisbon plan");

    // Emptied, the box saves the default, and the diff says so.
    fireEvent.change(box, { target: { value: " " } });
    expect(added()).toEqual(["Restore “Lisbon plan”"]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Restore on main" }));
    await waitFor(() => expect(restoreFn).toHaveBeenCalledTimes(2));
    expect(restoreFn.mock.calls.at(-1)?.[0]).toEqual({
      ref: "aaa1111",
      body: {
        branch: "main",
        message: "Restore “Lisbon plan”",
        expected_head_commit_id: "bbb2222",
      },
    });
  });
});
