import createClient from "openapi-fetch";
import { authHeaders, markUnauthorized } from "./auth";
import type { paths } from "./schema";

/** One error type for every failed call; mirrors the API's error shape. */
export interface FieldError {
  field: string;
  message: string;
  source?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly errors: FieldError[];
  readonly provider: string | null;

  constructor(
    status: number,
    detail: string,
    errors: FieldError[] = [],
    provider: string | null = null,
  ) {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.errors = errors;
    this.provider = provider;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Turns any error body (or none) into an ApiError. */
export function toApiError(status: number, body: unknown, fallback: string): ApiError {
  if (isRecord(body)) {
    const detail = typeof body.detail === "string" ? body.detail : fallback;
    const errors = Array.isArray(body.errors)
      ? body.errors.filter(isRecord).map((e) => ({
          field: String(e.field ?? ""),
          message: String(e.message ?? ""),
          source: typeof e.source === "string" ? e.source : "body",
        }))
      : [];
    const provider = typeof body.provider === "string" ? body.provider : null;
    return new ApiError(status, detail, errors, provider);
  }
  return new ApiError(status, fallback);
}

const networkError = (cause: unknown) => {
  const error = new ApiError(
    0,
    "Could not reach the Smriti server. Check that it is running, then retry.",
  );
  error.cause = cause;
  return error;
};

/** The fetch every request goes through: network failures become an ApiError too. */
async function smritiFetch(input: Request): Promise<Response> {
  for (const [name, value] of Object.entries(authHeaders())) input.headers.set(name, value);
  let response: Response;
  try {
    response = await globalThis.fetch(input);
  } catch (cause) {
    throw networkError(cause);
  }
  if (response.status === 401) markUnauthorized();
  return response;
}

/** Typed client generated from the backend's OpenAPI document (src/api/schema.d.ts). */
export const api = createClient<paths>({ baseUrl: "", fetch: smritiFetch });

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Returns the data of an openapi-fetch result, or throws the API's error as an ApiError. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || error !== undefined) {
    throw toApiError(response.status, error, `${response.status} ${response.statusText}`.trim());
  }
  return data as T;
}

/**
 * A thin typed fetch for endpoints the generated schema does not (yet) describe correctly.
 * Same error handling as the generated client.
 */
export async function request<T>(
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
): Promise<T> {
  let response: Response;
  try {
    response = await globalThis.fetch(path, {
      method,
      headers: {
        ...authHeaders(),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch (cause) {
    throw networkError(cause);
  }
  if (response.status === 401) markUnauthorized();
  const text = await response.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!response.ok) {
    throw toApiError(response.status, parsed, `${response.status} ${response.statusText}`.trim());
  }
  return parsed as T;
}
