import { describe, expect, it, vi } from "vitest";
import { toApiError } from "./client";

describe("toApiError", () => {
  it("reads the API's one error shape, an RFC 9457 problem detail", () => {
    const error = toApiError(
      400,
      {
        type: "about:blank",
        title: "Bad Request",
        status: 400,
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

  it("uses the problem's title when it has no detail", () => {
    const error = toApiError(
      503,
      { type: "about:blank", title: "Service Unavailable", status: 503 },
      "503",
    );
    expect(error.detail).toBe("Service Unavailable");
  });

  it("falls back to the status line for a body that is not the error shape", () => {
    const error = toApiError(502, "<html>Bad gateway</html>", "502 Bad Gateway");
    expect(error.detail).toBe("502 Bad Gateway");
    expect(error.provider).toBeNull();
  });
});

describe("the API token", () => {
  it("is sent as a bearer token, and a 401 asks for it", async () => {
    const { api, unwrap } = await import("./client");
    const { setApiToken, useTokenRequired } = await import("./auth");
    const { renderHook } = await import("@testing-library/react");
    const seen: (string | null)[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: Request) => {
        seen.push(input.headers.get("authorization"));
        return new Response(
          JSON.stringify({
            type: "about:blank",
            title: "Unauthorized",
            status: 401,
            detail: "Missing or wrong API token.",
          }),
          {
            status: 401,
          },
        );
      }),
    );
    const required = renderHook(() => useTokenRequired());
    expect(required.result.current).toBe(false);

    await expect(unwrap(api.GET("/v4/repos"))).rejects.toMatchObject({ status: 401 });
    expect(seen).toEqual([null]);
    required.rerender();
    expect(required.result.current).toBe(true);

    setApiToken("s3cret");
    required.rerender();
    expect(required.result.current).toBe(false);
    await expect(unwrap(api.GET("/v4/repos"))).rejects.toMatchObject({ status: 401 });
    expect(seen[1]).toBe("Bearer s3cret");
    setApiToken(null);
    vi.unstubAllGlobals();
  });
});
