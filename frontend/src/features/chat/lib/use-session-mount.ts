import { useCallback, useMemo } from "react";
import type { Turn } from "@/api/models";
import { type Mount, mountCheckpoint } from "./history-base";
import { useMount } from "./mount-store";

export interface SessionMount {
  mount: Mount | null;
  /** False until every Turn of the Session is loaded: the boundary is computed from them. */
  ready: boolean;
  mountTo: (checkpointId: string) => void;
  unmount: () => void;
}

/**
 * The mount of a Session with the actions that change it. `baseCommitId` is the Session's base
 * (a fork's): a Turn sent on it without a mount records the base with no boundary, which is not
 * a mount (a mount always has a `history_base_seq`).
 */
export function useSessionMount(
  sessionId: string,
  turns: readonly Turn[] | undefined,
  baseCommitId: string | null = null,
): SessionMount {
  const lastSent = useMemo(() => {
    if (!turns) return undefined;
    for (let i = turns.length - 1; i >= 0; i -= 1) {
      const turn = turns[i];
      if (turn?.role !== "user") continue;
      const onBase = turn.checkpoint_id === baseCommitId && turn.history_base_seq === null;
      return onBase ? undefined : turn;
    }
    return undefined;
  }, [turns, baseCommitId]);
  const [mount, setMount] = useMount(sessionId, lastSent);
  const ready = turns !== undefined;
  const mountTo = useCallback(
    (checkpointId: string) => {
      if (turns) setMount(mountCheckpoint(checkpointId, turns));
    },
    [turns, setMount],
  );
  const unmount = useCallback(() => setMount(null), [setMount]);
  return { mount, ready, mountTo, unmount };
}
