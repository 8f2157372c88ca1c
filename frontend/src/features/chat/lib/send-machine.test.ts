import { describe, expect, it } from "vitest";
import { idle, isInFlight, type OutgoingMessage, type SendState, transition } from "./send-machine";

const message = (requestId: string, content = "hello"): OutgoingMessage => ({
  content,
  requestId,
  retryOf: null,
  provider: "offline",
  model: "offline-1",
});

describe("the send machine", () => {
  it("goes idle → sending → done, and sending → failed", () => {
    const sending = transition<string>(idle, { type: "send", message: message("r1") });
    expect(sending).toEqual({ status: "sending", message: message("r1") });
    expect(transition(sending, { type: "succeed", requestId: "r1", reply: "ok" })).toEqual({
      status: "done",
      message: message("r1"),
      reply: "ok",
    });
    const error = new Error("offline");
    expect(transition(sending, { type: "fail", requestId: "r1", error })).toEqual({
      status: "failed",
      message: message("r1"),
      error,
    });
  });

  it("sends again from done or failed", () => {
    const done: SendState<string> = { status: "done", message: message("r1"), reply: "ok" };
    const failed: SendState<string> = { status: "failed", message: message("r1"), error: null };
    for (const from of [done, failed]) {
      expect(transition(from, { type: "send", message: message("r2", "next") })).toEqual({
        status: "sending",
        message: message("r2", "next"),
      });
    }
  });

  it("refuses a send while one is on its way, returning the same state", () => {
    const sending = transition<string>(idle, { type: "send", message: message("r1") });
    expect(transition(sending, { type: "send", message: message("r2", "again") })).toBe(sending);
  });

  it("ignores an outcome that is not the current send's", () => {
    const sending = transition<string>(idle, { type: "send", message: message("r2") });
    expect(transition(sending, { type: "succeed", requestId: "r1", reply: "late" })).toBe(sending);
    expect(transition(sending, { type: "fail", requestId: "r1", error: null })).toBe(sending);
    expect(transition<string>(idle, { type: "succeed", requestId: "r2", reply: "x" })).toBe(idle);
    const done = transition(sending, { type: "succeed", requestId: "r2", reply: "ok" });
    expect(transition(done, { type: "fail", requestId: "r2", error: null })).toBe(done);
  });

  it("is in flight only while sending", () => {
    const sending = transition<string>(idle, { type: "send", message: message("r1") });
    expect(isInFlight(idle)).toBe(false);
    expect(isInFlight(sending)).toBe(true);
    expect(isInFlight(transition(sending, { type: "fail", requestId: "r1", error: 0 }))).toBe(
      false,
    );
    expect(isInFlight(transition(sending, { type: "succeed", requestId: "r1", reply: "ok" }))).toBe(
      false,
    );
  });

  it("streams: sending → receiving with the text so far → done, stopped or failed", () => {
    const sending = transition<string>(idle, { type: "send", message: message("r1") });
    const receiving = transition(sending, { type: "begin", requestId: "r1" });
    expect(receiving).toEqual({ status: "receiving", message: message("r1"), text: "" });
    expect(isInFlight(receiving)).toBe(true);
    const some = transition(receiving, { type: "text", requestId: "r1", text: "Lis" });
    expect(some).toEqual({ status: "receiving", message: message("r1"), text: "Lis" });
    expect(transition(some, { type: "succeed", requestId: "r1", reply: "ok" }).status).toBe("done");
    const stopped = transition(some, { type: "stop", requestId: "r1" });
    expect(stopped).toEqual({ status: "stopped", message: message("r1"), text: "Lis" });
    expect(isInFlight(stopped)).toBe(false);
    expect(transition(some, { type: "fail", requestId: "r1", error: "x" }).status).toBe("failed");
    // Stopped before the reply began: nothing had arrived.
    expect(transition(sending, { type: "stop", requestId: "r1" })).toEqual({
      status: "stopped",
      message: message("r1"),
      text: "",
    });
  });

  it("ignores news of a send after it settled or of another send", () => {
    const sending = transition<string>(idle, { type: "send", message: message("r1") });
    const stopped = transition(sending, { type: "stop", requestId: "r1" });
    // The transport's late outcome of a stopped send changes nothing.
    expect(transition(stopped, { type: "fail", requestId: "r1", error: "aborted" })).toBe(stopped);
    expect(transition(stopped, { type: "text", requestId: "r1", text: "late" })).toBe(stopped);
    expect(transition(sending, { type: "text", requestId: "r2", text: "other" })).toBe(sending);
    const again = transition(stopped, { type: "send", message: message("r2") });
    expect(again.status).toBe("sending");
  });
});
