import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { ContextPreview } from "@/api/models";
import { ContextPanel } from "./context-panel";

let preview: ContextPreview;
vi.mock("../api/preview-context", () => ({
  useContextPreview: () => ({
    isPending: false,
    isError: false,
    isFetching: false,
    data: preview,
    refetch: () => Promise.resolve(),
  }),
}));

function context(total: number, window: number | null = 8_000): ContextPreview {
  return {
    session_id: "s",
    provider: "offline",
    model: "offline-1",
    checkpoint_from: null,
    checkpoint_id: null,
    history_base_seq: null,
    system: "You are continuing a line of work.",
    sections: [{ name: "history", part: "history", items: 2, tokens: total }],
    messages: [
      { sequence_number: 1, role: "user", content: "We decided on **Lisbon**." },
      { sequence_number: 2, role: "assistant", content: "Noted." },
    ],
    total_tokens: total,
    context_window: window,
    token_estimate: "about 4 characters per token",
  };
}

const show = (total: number, window: number | null = 8_000) => {
  preview = context(total, window);
  render(<ContextPanel request={{ session_id: "s" }} mountedLabel={null} />);
};

describe("the context panel", () => {
  it("shows N of M tokens with a bar, and warns from three quarters of the window", () => {
    show(7_000);
    expect(screen.getByTestId("context-window")).toHaveTextContent("of 8,000");
    expect(screen.getByTestId("context-window-bar")).toHaveAttribute("value", "7000");
    expect(screen.getByTestId("context-window-bar")).toHaveTextContent("88%");
    expect(screen.getByTestId("context-warning")).toHaveTextContent(
      "Large context: about 7,000 tokens, 88% of offline-1's 8,000.",
    );
  });

  it("says the window is unknown, with no bar and no warning, when the server does not know it", () => {
    show(70_000, null);
    expect(screen.queryByTestId("context-window")).toBeNull();
    expect(screen.queryByTestId("context-window-bar")).toBeNull();
    expect(screen.queryByTestId("context-warning")).toBeNull();
    expect(screen.getByTestId("context-panel")).toHaveTextContent("this model's window is unknown");
  });

  it("says whether the count is the model's tokenizer's or the estimate", () => {
    show(232);
    expect(screen.getByTestId("context-panel")).toHaveTextContent(
      "with about 232 of 8,000 tokens of context (about 4 characters per token)",
    );
    preview = {
      ...context(232),
      model: "gpt-4o",
      tokenizer: "o200k_base",
      token_estimate: "counted with o200k_base, gpt-4o's tokenizer",
    };
    render(<ContextPanel request={{ session_id: "t" }} mountedLabel={null} />);
    expect(screen.getAllByTestId("context-panel")[1]).toHaveTextContent(
      "with 232 of 8,000 tokens of context (counted with o200k_base, gpt-4o's tokenizer)",
    );
  });

  it("does not warn for a small context", () => {
    show(232);
    expect(screen.queryByTestId("context-warning")).toBeNull();
  });

  it("copies the exact context: the system text and the messages", async () => {
    const user = userEvent.setup();
    show(232);
    await user.click(screen.getByRole("button", { name: "Copy context" }));
    expect(await navigator.clipboard.readText()).toBe(
      "System:\nYou are continuing a line of work.\n\n#1 You:\nWe decided on **Lisbon**.\n\n#2 Assistant:\nNoted.\n",
    );
  });

  it("names the Turns in scope that the provider is not sent, and says why", () => {
    show(232);
    expect(screen.queryByTestId("context-left-out")).toBeNull();
    const reason = "The offline provider's replies are left out.";
    const many = Array.from({ length: 20 }, (_, i) => 2 * i + 2);
    preview = { ...context(232), provider: "openai", left_out: { sequence_numbers: many, reason } };
    render(<ContextPanel request={{ session_id: "t" }} mountedLabel={null} />);
    expect(screen.getByTestId("context-left-out")).toHaveTextContent(
      `20 Turns not sent (#2, #4, #6, #8, #10, #12, #14, #16, #18, #20, #22, #24 and 8 more). ${reason}`,
    );
  });

  it("draws Refresh as a button, like the app's other buttons", () => {
    show(232);
    const refresh = screen.getByRole("button", { name: "Refresh" });
    expect(refresh).toHaveClass("btn");
    // A ghost button has no border or background: it read as plain text.
    expect(refresh).not.toHaveClass("ghost");
  });
});
