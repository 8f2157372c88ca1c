import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/api/client";
import type { SendRequest } from "@/api/models";
import { streamMessage } from "./send-message";

const body: SendRequest = { session_id: "s1", content: "hi" };

function eventStream(pieces: string[]): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } });
}

function progress() {
  return { signal: new AbortController().signal, onBegin: vi.fn(), onText: vi.fn() };
}

afterEach(() => vi.unstubAllGlobals());

describe("streamMessage", () => {
  it("asks for events, reports the reply so far, and resolves with the stored pair", async () => {
    const done = { user_turn: { sequence_number: 1 }, assistant_turn: { sequence_number: 2 } };
    const fetch = vi.fn(async (_request: Request) =>
      eventStream([
        'event: context\ndata: {"provider":"openai"}\n\n: keep-alive\n\nevent: del',
        'ta\ndata: {"text":"Lis"}\n\nevent: delta\ndata: {"text":"bon"}\n\n',
        `event: done\ndata: ${JSON.stringify(done)}\n\n`,
      ]),
    );
    vi.stubGlobal("fetch", fetch);
    const given = progress();
    await expect(streamMessage(body, given)).resolves.toEqual(done);
    const request = fetch.mock.calls[0]?.[0];
    expect(request?.headers.get("accept")).toBe("text/event-stream");
    expect(given.onBegin).toHaveBeenCalledTimes(1);
    expect(given.onText.mock.calls).toEqual([["Lis"], ["Lisbon"]]);
  });

  it("rejects with the error event's status, detail and provider", async () => {
    vi.stubGlobal("fetch", async () =>
      eventStream([
        'event: context\ndata: {}\n\nevent: delta\ndata: {"text":"Hal"}\n\n',
        'event: error\ndata: {"status":502,"detail":"openai failed mid-stream","provider":"openai"}\n\n',
      ]),
    );
    const error = await streamMessage(body, progress()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 502,
      detail: "openai failed mid-stream",
      provider: "openai",
    });
  });

  it("rejects a refusal (JSON, before any event) with its fields, and a stream cut short", async () => {
    const problem = { status: 400, detail: "No.", errors: [{ field: "content", message: "No." }] };
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(JSON.stringify(problem), {
          status: 400,
          headers: { "content-type": "application/problem+json" },
        }),
    );
    await expect(streamMessage(body, progress())).rejects.toMatchObject({
      status: 400,
      errors: [{ field: "content", message: "No.", source: "body" }],
    });
    vi.stubGlobal("fetch", async () =>
      eventStream(['event: context\ndata: {}\n\nevent: delta\ndata: {"text":"x"}\n\n']),
    );
    await expect(streamMessage(body, progress())).rejects.toMatchObject({ status: 0 });
  });
});
