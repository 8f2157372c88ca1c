import { describe, expect, it } from "vitest";
import { formatUsage } from "./format";

describe("formatUsage", () => {
  it("says what was counted, and how many replies reported nothing", () => {
    expect(formatUsage({ input_tokens: 1240, output_tokens: 310, uncounted_replies: 0 })).toBe(
      "1,240 tokens in · 310 out",
    );
    expect(formatUsage({ input_tokens: 10, output_tokens: 2, uncounted_replies: 1 })).toBe(
      "10 tokens in · 2 out, 1 reply without counts",
    );
    expect(formatUsage({ input_tokens: 0, output_tokens: 0, uncounted_replies: 3 })).toBe(
      "3 replies without counts",
    );
    expect(formatUsage({ input_tokens: 0, output_tokens: 0, uncounted_replies: 0 })).toBe("");
  });
});
