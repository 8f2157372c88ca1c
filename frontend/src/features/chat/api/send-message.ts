import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { SendRequest, SendResponse, Session } from "@/api/models";
import { mergeTurns } from "@/features/sessions";

/** POST /v4/chat/send — store the user Turn and the reply together. */
export async function sendMessage(body: SendRequest): Promise<SendResponse> {
  return unwrap(api.POST("/v4/chat/send", { body }));
}

export function useSendMessage(spaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendMessage,
    onSuccess: (result, body) => {
      const sessionId = body.session_id;
      queryClient.setQueryData(
        keys.turns(sessionId),
        (old: SendResponse["user_turn"][] | undefined) =>
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
    },
  });
}
