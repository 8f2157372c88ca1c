import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/api/client";
import { type SendInput, useSend } from "../lib/use-send";
import { Composer } from "./composer";

/** The composer as the chat wires it: driven by the send's one owner, useSend. */
function SendBox({
  send,
  createRequestId,
}: {
  send: (input: SendInput) => Promise<unknown>;
  createRequestId: () => string;
}) {
  return <Composer send={useSend({ send, createRequestId })} />;
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("Composer", () => {
  it("sends on Enter, adds a line on Shift+Enter, and is disabled while sending", async () => {
    const user = userEvent.setup();
    const pending = deferred();
    const send = vi.fn((_: SendInput) => pending.promise);
    render(<SendBox send={send} createRequestId={() => "req-1"} />);
    const box = screen.getByRole("textbox", { name: "Message" });

    await user.type(box, "first line{Shift>}{Enter}{/Shift}second line");
    expect(send).not.toHaveBeenCalled();
    expect(box).toHaveValue("first line\nsecond line");

    await user.keyboard("{Enter}");
    expect(send).toHaveBeenCalledWith(
      {
        content: "first line\nsecond line",
        requestId: "req-1",
        retryOf: null,
      },
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    expect(box).toBeDisabled();
    // While it is on its way, the send button is Stop.
    expect(screen.getByRole("button", { name: "Stop the reply" })).toBeEnabled();

    pending.resolve();
    await waitFor(() => expect(box).toBeEnabled());
    expect(box).toHaveValue("");
  });

  it("keeps the text after a failure, shows the error, and retries with the same request_id", async () => {
    const user = userEvent.setup();
    const ids = ["req-A", "req-B"];
    const send = vi
      .fn<(input: SendInput) => Promise<unknown>>()
      .mockRejectedValueOnce(
        new ApiError(502, "The provider failed: upstream said 500.", [], "openai"),
      )
      .mockResolvedValueOnce({});
    render(<SendBox send={send} createRequestId={() => ids.shift() ?? "req-X"} />);
    const box = screen.getByRole("textbox", { name: "Message" });

    await user.type(box, "Plan the trip{Enter}");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(
      "Not sent: The provider failed: upstream said 500. (provider: openai)",
    );
    expect(box).toHaveValue("Plan the trip");
    expect(box).toBeEnabled();

    await user.click(screen.getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    expect(send.mock.calls[0]?.[0]).toEqual({
      content: "Plan the trip",
      requestId: "req-A",
      retryOf: null,
    });
    expect(send.mock.calls[1]?.[0]).toEqual({
      content: "Plan the trip",
      requestId: "req-A",
      retryOf: null,
    });
    await waitFor(() => expect(box).toHaveValue(""));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("reuses the request_id when the same text is sent again with Enter, and not for edited text", async () => {
    const user = userEvent.setup();
    let n = 0;
    const send = vi
      .fn<(input: SendInput) => Promise<unknown>>()
      .mockRejectedValue(new ApiError(0, "offline"));
    render(<SendBox send={send} createRequestId={() => `req-${++n}`} />);
    const box = screen.getByRole("textbox", { name: "Message" });

    await user.type(box, "hello{Enter}");
    await screen.findByRole("alert");
    await user.type(box, "{Enter}");
    await waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    expect(send.mock.calls[1]?.[0].requestId).toBe("req-1");

    await user.type(box, " there{Enter}");
    await waitFor(() => expect(send).toHaveBeenCalledTimes(3));
    expect(send.mock.calls[2]?.[0]).toEqual({
      content: "hello there",
      requestId: "req-2",
      retryOf: null,
    });
  });
});
