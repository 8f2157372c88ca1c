import { describe, expect, it } from "vitest";
import { toApiError } from "./client";

describe("toApiError", () => {
  it("reads the API's one error shape", () => {
    const error = toApiError(
      400,
      {
        status_code: 400,
        detail: "Invalid request.",
        errors: [{ field: "tasks[0].done", message: "Expected `bool`", source: "body" }],
        provider: "openai",
      },
      "400",
    );
    expect(error.status).toBe(400);
    expect(error.detail).toBe("Invalid request.");
    expect(error.errors).toEqual([
      { field: "tasks[0].done", message: "Expected `bool`", source: "body" },
    ]);
    expect(error.provider).toBe("openai");
  });

  it("falls back to the status line for a body that is not the error shape", () => {
    const error = toApiError(502, "<html>Bad gateway</html>", "502 Bad Gateway");
    expect(error.detail).toBe("502 Bad Gateway");
    expect(error.provider).toBeNull();
  });
});
