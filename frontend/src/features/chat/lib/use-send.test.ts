import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/api/client";
import { type DeliveryProgress, type SendInput, useSend } from "./use-send";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const via = { provider: "openai", model: "gpt-5-mini" };

function setup(send: (input: SendInput) => Promise<string>, ids = ["req-1", "req-2", "req-3"]) {
  const createRequestId = vi.fn(() => ids.shift() ?? "req-X");
  const hook = renderHook(() => useSend({ send, via, createRequestId }));
  const type = (text: string) => act(() => hook.result.current.setDraft(text));
  return { hook, createRequestId, type };
}

describe("useSend", () => {
  it("goes idle → sending → done, the draft emptied as the message goes (it shows as pending)", async () => {
    const reply = deferred<string>();
    const send = vi.fn((_: SendInput) => reply.promise);
    const { hook, type } = setup(send);
    expect(hook.result.current.state).toEqual({ status: "idle" });
    expect(hook.result.current.busy).toBe(false);

    await type("  Plan the trip  ");
    let settled: Promise<void> | null = null;
    act(() => {
      settled = hook.result.current.submit();
    });
    expect(settled).not.toBeNull();
    expect(send).toHaveBeenCalledWith(
      { content: "Plan the trip", requestId: "req-1", retryOf: null },
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    expect(hook.result.current.state).toEqual({
      status: "sending",
      message: { content: "Plan the trip", requestId: "req-1", retryOf: null, ...via },
    });
    expect(hook.result.current.busy).toBe(true);
    // The box is empty while the message is on its way: the pending row shows it instead.
    expect(hook.result.current.draft).toBe("");

    await act(async () => {
      reply.resolve("stored");
      await settled;
    });
    expect(hook.result.current.state).toEqual({
      status: "done",
      message: { content: "Plan the trip", requestId: "req-1", retryOf: null, ...via },
      reply: "stored",
    });
    expect(hook.result.current.busy).toBe(false);
    expect(hook.result.current.draft).toBe("");
  });

  it("gives the typed text back after a failed send, and retries it with the same request_id", async () => {
    const error = new ApiError(502, "The provider failed.", [], "openai");
    const send = vi
      .fn<(input: SendInput) => Promise<string>>()
      .mockRejectedValueOnce(error)
      .mockResolvedValueOnce("stored");
    const { hook, type, createRequestId } = setup(send);

    await type("Plan the trip\n");
    await act(async () => {
      await hook.result.current.submit();
    });
    expect(hook.result.current.state).toEqual({
      status: "failed",
      message: { content: "Plan the trip", requestId: "req-1", retryOf: null, ...via },
      error,
    });
    // Exactly as typed, nothing lost.
    expect(hook.result.current.draft).toBe("Plan the trip\n");
    expect(hook.result.current.busy).toBe(false);

    await act(async () => {
      await hook.result.current.retry();
    });
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1]?.[0]).toEqual({
      content: "Plan the trip",
      requestId: "req-1",
      retryOf: null,
    });
    expect(createRequestId).toHaveBeenCalledTimes(1);
    expect(hook.result.current.state.status).toBe("done");
    expect(hook.result.current.draft).toBe("");
  });

  it("refuses a second send while one is on its way", async () => {
    const reply = deferred<string>();
    const send = vi.fn((_: SendInput) => reply.promise);
    const { hook, type, createRequestId } = setup(send);

    await type("first");
    let first: Promise<void> | null = null;
    let second: Promise<void> | null = null;
    let third: Promise<void> | null = null;
    let retried: Promise<void> | null = null;
    act(() => {
      first = hook.result.current.submit();
      // The same tick, before React renders the sending state: still refused.
      second = hook.result.current.submit();
    });
    await type("second");
    act(() => {
      third = hook.result.current.submit();
      retried = hook.result.current.retry();
    });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    expect(third).toBeNull();
    expect(retried).toBeNull();
    expect(send).toHaveBeenCalledTimes(1);
    expect(createRequestId).toHaveBeenCalledTimes(1);
    expect(hook.result.current.state).toMatchObject({
      status: "sending",
      message: { content: "first" },
    });

    await act(async () => {
      reply.resolve("stored");
      await first;
    });
    // Text typed meanwhile stays.
    expect(hook.result.current.draft).toBe("second");
  });

  it("gives the text back after a Stop before any reply (nothing stored), not after one with some", async () => {
    const send = vi.fn(
      (_: SendInput, progress: DeliveryProgress) =>
        new Promise<string>((_resolve, reject) => {
          if (progress.signal.aborted) reject(progress.signal.reason);
          progress.signal.addEventListener("abort", () => reject(progress.signal.reason));
        }),
    );
    const hook = renderHook(() => useSend({ send, via }));
    act(() => hook.result.current.setDraft("Plan the trip"));
    let settled: Promise<void> | null = null;
    act(() => {
      settled = hook.result.current.submit();
    });
    expect(hook.result.current.draft).toBe("");
    await act(async () => {
      hook.result.current.stop();
      await settled;
    });
    expect(hook.result.current.draft).toBe("Plan the trip");

    act(() => {
      settled = hook.result.current.submit();
    });
    act(() => send.mock.calls[1]?.[1].onText("Some of the reply"));
    await act(async () => {
      hook.result.current.stop();
      await settled;
    });
    // Stored with what had arrived: the message was sent, the box stays empty.
    expect(hook.result.current.draft).toBe("");
  });

  it("refuses an empty draft and a retry with nothing failed", () => {
    const send = vi.fn((_: SendInput) => Promise.resolve("stored"));
    const { hook } = setup(send);
    act(() => hook.result.current.setDraft("   \n "));
    expect(hook.result.current.submit()).toBeNull();
    expect(hook.result.current.retry()).toBeNull();
    expect(send).not.toHaveBeenCalled();
    expect(hook.result.current.state).toEqual({ status: "idle" });
  });

  it("keeps the request_id for the same text after a failure, and not for edited text", async () => {
    const send = vi
      .fn<(input: SendInput) => Promise<string>>()
      .mockRejectedValue(new ApiError(0, "offline"));
    const { hook, type } = setup(send);

    await type("hello");
    await act(async () => {
      await hook.result.current.submit();
    });
    await act(async () => {
      await hook.result.current.submit();
    });
    await type("hello there");
    await act(async () => {
      await hook.result.current.submit();
    });
    expect(send.mock.calls.map(([input]) => input)).toEqual([
      { content: "hello", requestId: "req-1", retryOf: null },
      { content: "hello", requestId: "req-1", retryOf: null },
      { content: "hello there", requestId: "req-2", retryOf: null },
    ]);
  });

  it("asks the last exchange again with a new request_id, leaving the draft alone", async () => {
    const error = new ApiError(502, "The provider failed.", [], "openai");
    const send = vi
      .fn<(input: SendInput) => Promise<string>>()
      .mockRejectedValueOnce(error)
      .mockResolvedValue("stored");
    const { hook, type } = setup(send);
    await type("half-written next message");
    await act(async () => {
      await hook.result.current.askAgain({ content: "Plan the trip", sequence_number: 3 });
    });
    expect(hook.result.current.state).toMatchObject({
      status: "failed",
      message: { content: "Plan the trip", requestId: "req-1", retryOf: 3 },
    });
    // Resending the failed retry keeps its key and what it retries.
    await act(async () => {
      await hook.result.current.retry();
    });
    expect(send.mock.calls.map(([input]) => input)).toEqual([
      { content: "Plan the trip", requestId: "req-1", retryOf: 3 },
      { content: "Plan the trip", requestId: "req-1", retryOf: 3 },
    ]);
    expect(hook.result.current.state.status).toBe("done");
    expect(hook.result.current.draft).toBe("half-written next message");
  });

  it("refuses a retry while a message is on its way", () => {
    const reply = deferred<string>();
    const send = vi.fn((_: SendInput) => reply.promise);
    const { hook } = setup(send);
    act(() => hook.result.current.setDraft("hello"));
    act(() => {
      hook.result.current.submit();
    });
    let again: Promise<void> | null = Promise.resolve();
    act(() => {
      again = hook.result.current.askAgain({ content: "hello", sequence_number: 1 });
    });
    expect(again).toBeNull();
    expect(send).toHaveBeenCalledTimes(1);
  });
});
