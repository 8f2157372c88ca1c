import type { QueryClient } from "@tanstack/react-query";
import { keys } from "@/api/keys";

/**
 * What a proposal's merge or close can move: every proposal list and page of the Space, and (a
 * merge) the line merged into, its Checkpoints and the Space's HEAD.
 */
export function invalidateProposals(queryClient: QueryClient, spaceId: string, merged: boolean) {
  void queryClient.invalidateQueries({ queryKey: keys.proposals(spaceId) });
  if (!merged) return;
  void queryClient.invalidateQueries({ queryKey: keys.lines(spaceId) });
  void queryClient.invalidateQueries({ queryKey: keys.checkpoints(spaceId) });
  void queryClient.invalidateQueries({ queryKey: keys.space(spaceId) });
  void queryClient.invalidateQueries({ queryKey: keys.spaces() });
}
