import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keys } from "@/api/keys";
import type { ContextRequest } from "@/api/models";

/** POST /v4/chat/context — exactly what the provider would receive next. */
export async function previewContext(body: ContextRequest) {
  return unwrap(api.POST("/v4/chat/context", { body }));
}

export function useContextPreview(body: ContextRequest, enabled = true) {
  return useQuery({
    queryKey: [...keys.context(body.session_id), body] as const,
    queryFn: () => previewContext(body),
    enabled,
  });
}
