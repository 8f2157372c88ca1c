import type { QueryClient } from "@tanstack/react-query";
import { keys } from "@/api/keys";

/** What a change to lines can move: the lines, and the Space's HEAD (the default line's). */
export function invalidateLines(queryClient: QueryClient, spaceId: string) {
  void queryClient.invalidateQueries({ queryKey: keys.lines(spaceId) });
  void queryClient.invalidateQueries({ queryKey: keys.space(spaceId) });
  void queryClient.invalidateQueries({ queryKey: keys.spaces() });
}
