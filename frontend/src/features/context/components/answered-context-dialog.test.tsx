import { render, screen, within } from "@testing-library/react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { AnsweredContext } from "@/api/models";
import { AnsweredContextDialog } from "./answered-context-dialog";

let answered: AnsweredContext;
vi.mock("../api/get-answered-context", () => ({
  useAnsweredContext: () => ({ isPending: false, isError: false, data: answered }),
}));

beforeAll(() => {
  // jsdom has no modal dialogs: opening one shows it, as a browser would.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

const hash = "a".repeat(64);
function context(recorded: string | null, matches: boolean | null): AnsweredContext {
  return {
    session_id: "s",
    sequence_number: 4,
    provider: "openai",
    model: "gpt-5-mini",
    checkpoint_id: "c",
    history_base_seq: 2,
    system: "You are continuing a line of work saved in Smriti.",
    messages: [
      { sequence_number: 3, role: "user", content: "Where first?" },
      { sequence_number: 4, role: "user", content: "And then?" },
    ],
    context_sha256: hash,
    recorded_sha256: recorded,
    matches,
  };
}

const show = (ctx: AnsweredContext) => {
  answered = ctx;
  render(<AnsweredContextDialog sessionId="s" sequenceNumber={4} onClose={() => {}} />);
  return screen.getByRole("dialog", { name: "What the model saw for reply #4" });
};

describe("AnsweredContextDialog", () => {
  it("shows the rebuilt context and that its receipt holds", () => {
    const dialog = show(context(hash, true));
    expect(within(dialog).getByTestId("receipt")).toHaveTextContent("Rebuilt exactly");
    expect(within(dialog).getByTestId("receipt")).toHaveTextContent("aaaaaaaaaaaa…");
    expect(dialog).toHaveTextContent(
      "Sent to openai · gpt-5-mini: a Checkpoint, then the Turns after #2.",
    );
    expect(dialog).toHaveTextContent("And then?");
    expect(within(dialog).getByText("System text (the Checkpoint)")).toBeInTheDocument();
  });

  it("says so, as an alert, when the rebuilt context does not match the receipt", () => {
    const dialog = show(context("b".repeat(64), false));
    expect(within(dialog).getByRole("alert")).toHaveTextContent(
      "not to the receipt this reply recorded",
    );
  });

  it("says when there is no receipt to compare", () => {
    const dialog = show(context(null, null));
    expect(within(dialog).getByTestId("receipt")).toHaveTextContent("no receipt to compare");
  });
});
