import { describe, expect, it } from "vitest";
import { makeLine } from "@/test/factories";
import { isProtected, lineOptionLabel } from "./protection";

describe("a line's protection", () => {
  it("is read from protected, and a line without the field is unprotected", () => {
    expect(isProtected({ ...makeLine("main", "c1"), ...{ protected: true } })).toBe(true);
    expect(isProtected({ ...makeLine("main", "c1"), ...{ protected: false } })).toBe(false);
    expect(isProtected(makeLine("main", "c1"))).toBe(false);
  });

  it("is said in a chooser's option, with the default", () => {
    const main = { ...makeLine("main", "c1", { is_default: true }), ...{ protected: true } };
    expect(lineOptionLabel(main)).toBe("main (default, protected)");
    expect(lineOptionLabel({ ...makeLine("try", "c2"), ...{ protected: true } })).toBe(
      "try (protected)",
    );
    expect(lineOptionLabel(makeLine("draft", "c3"))).toBe("draft");
  });
});
