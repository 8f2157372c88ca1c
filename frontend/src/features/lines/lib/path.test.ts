import { describe, expect, it } from "vitest";
import { linePathSerializer } from "./path";

const path = "/v4/repos/{repo_id}/branches/{name}";

describe("linePathSerializer", () => {
  it("keeps the slashes of a line name and encodes each segment", () => {
    expect(linePathSerializer(path, { repo_id: "space-1", name: "train/sintra" })).toBe(
      "/v4/repos/space-1/branches/train/sintra",
    );
    expect(linePathSerializer(path, { repo_id: "a b", name: "idea #2/what?" })).toBe(
      "/v4/repos/a%20b/branches/idea%20%232/what%3F",
    );
    expect(linePathSerializer(path, { repo_id: "space-1", name: "50%/.hidden" })).toBe(
      "/v4/repos/space-1/branches/50%25/.hidden",
    );
  });

  it("refuses a name the browser would resolve into another route", () => {
    for (const name of ["..", ".", "x/../..", "a/./b", "main/", "a//b", "/main"]) {
      expect(() => linePathSerializer(path, { repo_id: "space-1", name })).toThrow(
        /cannot be reached/,
      );
    }
  });
});
