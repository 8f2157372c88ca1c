import { describe, expect, it, vi } from "vitest";
import type { SpaceEvent } from "@/api/models";
import { type Connection, LiveStream } from "./live-stream";

function body(...chunks: string[]): ReadableStream<string> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

const frame = (id: number, type = "line.created") => {
  const event = {
    id,
    type,
    at: "",
    repo_id: "r",
    actor: { kind: "human", name: "person" },
    data: {},
  };
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(event)}\n\n`;
};

/** A stream whose connections answer `answers` in turn, then stops it. */
function scripted(answers: (Connection | Error)[]) {
  const sent: (string | null)[] = [];
  const events: number[] = [];
  const onRestart = vi.fn();
  const onUnauthorized = vi.fn();
  const stream: LiveStream = new LiveStream(
    async (lastEventId) => {
      sent.push(lastEventId);
      const answer = answers.shift();
      if (answer === undefined) {
        stream.stop();
        return { status: 503, body: null };
      }
      if (answer instanceof Error) throw answer;
      return answer;
    },
    { onEvent: (event: SpaceEvent) => events.push(event.id), onRestart, onUnauthorized },
    () => 0,
  );
  return { stream, sent, events, onRestart, onUnauthorized };
}

describe("the live event stream", () => {
  it("reconnects with Last-Event-ID = the last id seen, after a drop, an error or a 503", async () => {
    const { stream, sent, events } = scripted([
      { status: 200, body: body("id: 5\n\n") }, // the opening id, then the connection drops
      { status: 200, body: body(frame(6), frame(7).slice(0, 20)) }, // 7 cut off mid-event
      new TypeError("network"),
      { status: 503, body: null },
      { status: 200, body: body(frame(7), ": keep-alive\n\n") },
    ]);
    await stream.run();
    expect(sent).toEqual([null, "5", "6", "6", "6", "7"]);
    expect(events).toEqual([6, 7]);
  });

  it("starts again from now after a 410, and says so", async () => {
    const { stream, sent, onRestart } = scripted([
      { status: 200, body: body("id: 9\n\n") },
      { status: 410, body: null },
      { status: 200, body: body("id: 40\n\n") },
    ]);
    await stream.run();
    expect(sent).toEqual([null, "9", null, "40"]);
    expect(onRestart).toHaveBeenCalledTimes(1);
  });

  it("stops at a 401 until it is started again", async () => {
    const { stream, sent, onUnauthorized } = scripted([{ status: 401, body: null }]);
    await stream.run();
    expect(sent).toEqual([null]);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it("an event the app cannot apply is skipped once, not read again and again", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const seen: number[] = [];
    const answers: Connection[] = [
      { status: 200, body: body(frame(1), frame(2), frame(3)) },
      { status: 200, body: body(frame(4)) },
    ];
    const sent: (string | null)[] = [];
    const stream: LiveStream = new LiveStream(
      async (lastEventId) => {
        sent.push(lastEventId);
        const answer = answers.shift();
        if (answer === undefined) stream.stop();
        return answer ?? { status: 503, body: null };
      },
      {
        onEvent: (event) => {
          if (event.id === 2) throw new Error("a handler's bug");
          seen.push(event.id);
        },
        onRestart: vi.fn(),
      },
      () => 0,
    );
    await stream.run();
    expect(seen).toEqual([1, 3, 4]); // 1 not handed over twice, 2 skipped once
    expect(sent).toEqual([null, "3", "4"]);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
