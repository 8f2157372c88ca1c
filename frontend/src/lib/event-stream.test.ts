import { describe, expect, it } from "vitest";
import { EventStreamParser } from "./event-stream";

describe("the event-stream parser", () => {
  it("gives each event once it is complete, however the text is cut", () => {
    const stream =
      'event: context\ndata: {"a":1}\n\n: keep-alive\n\nevent: delta\ndata: {"text":"hé"}\n\nevent: done\ndata: {}\n\n';
    for (const size of [1, 2, 5, 17, stream.length]) {
      const parser = new EventStreamParser();
      const events = [];
      for (let at = 0; at < stream.length; at += size)
        events.push(...parser.feed(stream.slice(at, at + size)));
      expect(events).toEqual([
        { event: "context", data: '{"a":1}' },
        { event: "delta", data: '{"text":"hé"}' },
        { event: "done", data: "{}" },
      ]);
    }
  });

  it("keeps an unfinished event until its blank line, takes CRLF, and joins data lines", () => {
    const parser = new EventStreamParser();
    expect(parser.feed("event: delta\r\ndata: one\r\n")).toEqual([]);
    expect(parser.feed("data: two\r\n\r\ndata:three\n\n")).toEqual([
      { event: "delta", data: "one\ntwo" },
      { event: "message", data: "three" },
    ]);
  });

  it("drops comments and blocks without data", () => {
    const parser = new EventStreamParser();
    expect(parser.feed(": hello\n\nevent: nothing\n\nid: 3\n\n")).toEqual([]);
  });

  it("keeps the last id of a completed block, with data or without, for a reconnect", () => {
    const parser = new EventStreamParser();
    parser.feed("id: 7\n\n");
    expect(parser.lastEventId).toBe("7");
    parser.feed("id: 8\nevent: line.created\ndata: {}\n\nid: 9\ndata: {}");
    expect(parser.lastEventId).toBe("8"); // 9's block is not complete yet
    parser.feed("\n\n");
    expect(parser.lastEventId).toBe("9");
  });
});
