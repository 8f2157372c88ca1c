import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { ApiError, api, toApiError, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { SendRequest, SendResponse, Session, Turn } from "@/api/models";
import { mergeTurns } from "@/features/sessions";
import { EventStreamParser } from "@/lib/event-stream";
import { isRecord } from "@/lib/is-record";
import { whileSending } from "@/lib/sending";

/** What a streamed send reports while the reply arrives. */
export interface SendProgress {
  signal: AbortSignal;
  /** The send was accepted and the provider is being asked (the stream's `context` event). */
  onBegin: () => void;
  /** The reply so far: every `delta` until now, concatenated. */
  onText: (text: string) => void;
}

/** POST /v4/chat/send — store the user Turn and the reply together. */
export async function sendMessage(body: SendRequest): Promise<SendResponse> {
  return unwrap(api.POST("/v4/chat/send", { body }));
}

/**
 * POST /v4/chat/send with `Accept: text/event-stream` — the same send, its reply reported as it
 * arrives. Refusals come back as the usual JSON error; an `error` event rejects the same way
 * (nothing was stored); aborting `signal` stops it (the server keeps what had arrived, marked
 * stopped) and rejects with the abort.
 */
export async function streamMessage(
  body: SendRequest,
  progress: SendProgress,
): Promise<SendResponse> {
  const { data, error, response } = await api.POST("/v4/chat/send", {
    body,
    headers: { accept: "text/event-stream" },
    parseAs: "stream",
    signal: progress.signal,
  });
  if (!response.ok || error !== undefined || !data) {
    throw toApiError(response.status, error, `${response.status} ${response.statusText}`.trim());
  }
  const parser = new EventStreamParser();
  const reader = data.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const { event, data: payload } of parser.feed(value)) {
      const fields: unknown = JSON.parse(payload);
      if (event === "context") progress.onBegin();
      else if (event === "delta" && isRecord(fields) && typeof fields.text === "string") {
        text += fields.text;
        progress.onText(text);
      } else if (event === "done") return fields as SendResponse;
      else if (event === "error") throw streamError(fields);
    }
  }
  throw new ApiError(
    0,
    "The reply stopped arriving before it was complete; reload to see what was stored.",
  );
}

function streamError(fields: unknown): ApiError {
  if (!isRecord(fields)) return new ApiError(502, "The reply failed; nothing was stored.");
  const status = typeof fields.status === "number" ? fields.status : 502;
  const detail =
    typeof fields.detail === "string" ? fields.detail : "The reply failed; nothing was stored.";
  const provider = typeof fields.provider === "string" ? fields.provider : null;
  return new ApiError(status, detail, [], provider);
}

/** The stored pair joins the Session's Turns; the lists and the context preview refresh. */
function cacheSent(
  queryClient: QueryClient,
  spaceId: string,
  sessionId: string,
  result: SendResponse,
) {
  queryClient.setQueryData(keys.turns(sessionId), (old: Turn[] | undefined) =>
    mergeTurns(old, [result.user_turn, result.assistant_turn]),
  );
  queryClient.setQueryData(keys.session(sessionId), (old: Session | undefined) =>
    old
      ? {
          ...old,
          turn_count: Math.max(old.turn_count, result.assistant_turn.sequence_number),
          provider: result.assistant_turn.provider,
          model: result.assistant_turn.model,
          updated_at: result.assistant_turn.created_at,
        }
      : old,
  );
  // The first exchange of an untitled Session titles it, on the server: read that title back.
  if (queryClient.getQueryData<Session>(keys.session(sessionId))?.title.trim() === "")
    void queryClient.invalidateQueries({ queryKey: keys.session(sessionId) });
  void queryClient.invalidateQueries({ queryKey: keys.sessions(spaceId) });
  void queryClient.invalidateQueries({ queryKey: keys.context(sessionId) });
}

/**
 * Sends a message, streamed when given progress, and caches what was stored. A plain function
 * rather than a mutation: a send's state has one owner, useSend's machine, and a mutation would
 * keep a second copy of it.
 */
export function useSendMessage(spaceId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    async (body: SendRequest, progress?: SendProgress) => {
      const result = await whileSending(body.session_id, () =>
        progress ? streamMessage(body, progress) : sendMessage(body),
      );
      cacheSent(queryClient, spaceId, body.session_id, result);
      return result;
    },
    [queryClient, spaceId],
  );
}

/**
 * After a Stop, the server stores what had arrived as a pair (or nothing, if nothing had) a
 * moment after the connection closed: read the Turns again then, and once more in case that
 * moment was long.
 */
export function useRefreshAfterStop(spaceId: string, sessionId: string) {
  const queryClient = useQueryClient();
  return useCallback(() => {
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: keys.turns(sessionId) });
      void queryClient.invalidateQueries({ queryKey: keys.session(sessionId) });
      void queryClient.invalidateQueries({ queryKey: keys.sessions(spaceId) });
      void queryClient.invalidateQueries({ queryKey: keys.context(sessionId) });
    };
    window.setTimeout(refresh, 250);
    window.setTimeout(refresh, 1500);
  }, [queryClient, spaceId, sessionId]);
}
