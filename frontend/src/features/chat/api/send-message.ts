import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { SendRequest, SendResponse, Session, Turn } from "@/api/models";
import { mergeTurns } from "@/features/sessions";

/** POST /v4/chat/send — store the user Turn and the reply together. */
export async function sendMessage(body: SendRequest): Promise<SendResponse> {
  return unwrap(api.POST("/v4/chat/send", { body }));
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
  void queryClient.invalidateQueries({ queryKey: keys.sessions(spaceId) });
  void queryClient.invalidateQueries({ queryKey: keys.context(sessionId) });
}

/**
 * Sends a message and caches what was stored. A plain function rather than a mutation: a send's
 * state has one owner, useSend's machine, and a mutation would keep a second copy of it.
 */
export function useSendMessage(spaceId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    async (body: SendRequest) => {
      const result = await sendMessage(body);
      cacheSent(queryClient, spaceId, body.session_id, result);
      return result;
    },
    [queryClient, spaceId],
  );
}
