import { describe, expect, it } from "vitest";
import { makeTurn } from "@/test/factories";
import { retriedSeqs, retryableExchange } from "./retries";

const pair = (seq: number, extra: { retry_of?: number } = {}) => [
  makeTurn({ sequence_number: seq, role: "user", content: `q${seq}`, ...extra }),
  makeTurn({ sequence_number: seq + 1, role: "assistant", content: `a${seq + 1}` }),
];

describe("retriedSeqs", () => {
  it("marks each retried message and its reply, and nothing else", () => {
    const turns = [
      ...pair(1),
      ...pair(3),
      ...pair(5, { retry_of: 3 }),
      ...pair(7, { retry_of: 5 }),
    ];
    expect([...retriedSeqs(turns)].sort((a, b) => a - b)).toEqual([3, 4, 5, 6]);
    expect(retriedSeqs(pair(1)).size).toBe(0);
  });
});

describe("retryableExchange", () => {
  it("is the last message when the Session ends with its reply", () => {
    expect(retryableExchange([...pair(1), ...pair(3)], null)?.sequence_number).toBe(3);
  });

  it("is none for an empty Session, a lone message or two replies", () => {
    expect(retryableExchange([], null)).toBeNull();
    expect(retryableExchange([makeTurn({ sequence_number: 1, role: "user" })], null)).toBeNull();
    const replies = [
      makeTurn({ sequence_number: 1, role: "assistant" }),
      makeTurn({ sequence_number: 2, role: "assistant" }),
    ];
    expect(retryableExchange(replies, null)).toBeNull();
  });

  it("is none when the exchange is at or below the mount's boundary", () => {
    const turns = [...pair(1), ...pair(3)];
    expect(retryableExchange(turns, { checkpointId: "c", historyBaseSeq: 4 })).toBeNull();
    expect(
      retryableExchange(turns, { checkpointId: "c", historyBaseSeq: 2 })?.sequence_number,
    ).toBe(3);
  });
});
