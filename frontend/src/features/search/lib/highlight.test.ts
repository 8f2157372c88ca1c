import { describe, expect, it } from "vitest";
import { highlightPieces } from "./highlight";

describe("highlightPieces", () => {
  it("cuts by code point, so a character outside the BMP does not shift the marks", () => {
    expect(highlightPieces("𝔘nicode and deploy", [[12, 18]])).toEqual([
      { text: "𝔘nicode and ", match: false },
      { text: "deploy", match: true },
    ]);
  });

  it("ignores offsets that overlap, run backwards or pass the end", () => {
    expect(
      highlightPieces("abcdef", [
        [0, 2],
        [1, 3],
        [4, 4],
        [5, 9],
      ]),
    ).toEqual([
      { text: "ab", match: true },
      { text: "cdef", match: false },
    ]);
  });
});
