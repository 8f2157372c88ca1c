import { api } from "@/api/client";
import type { Connection } from "../lib/live-stream";

/**
 * GET /v5/events with `Accept: text/event-stream`: every Space the caller reads, on one
 * connection (a Space's own stream would need one per Space the app shows, and the Spaces list
 * changes with any of them). Through the app's client, so it sends the token and a 401 asks
 * for one; EventSource could send no Authorization header.
 */
export async function connectEvents(
  lastEventId: string | null,
  signal: AbortSignal,
): Promise<Connection> {
  const headers: Record<string, string> = { accept: "text/event-stream" };
  if (lastEventId !== null) headers["last-event-id"] = lastEventId;
  const { data, response } = await api.GET("/v5/events", { headers, parseAs: "stream", signal });
  const body = response.ok && data ? data.pipeThrough(new TextDecoderStream()) : null;
  return { status: response.status, body };
}
