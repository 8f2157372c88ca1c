import createClient from "openapi-fetch";
import { isRecord } from "@/lib/is-record";
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

/** Turns any error body (or none) into an ApiError. */
export function toApiError(status: number, body: unknown, fallback: string): ApiError {
  if (isRecord(body)) {
    // RFC 9457: `detail` says what happened; `title` is the kind of problem, the next best thing.
    const said = [body.detail, body.title].find((text) => typeof text === "string" && text.trim());
    const detail = typeof said === "string" ? said : fallback;
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
    if (input.signal.aborted) throw cause; // stopped on purpose (a streamed reply's Stop), not lost
    throw networkError(cause);
  }
  if (response.status === 401) markUnauthorized();
  return response;
}

/**
 * Typed client generated from the backend's OpenAPI document (src/api/schema.d.ts), the one way
 * the app calls the API. The base is the page's own origin, spelled out because Node's Request
 * (the unit tests') resolves no relative URL; in a browser it is what a relative URL resolves to.
 */
export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? "",
  fetch: smritiFetch,
});

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
