import { useCallback, useMemo } from "react";
import type { Turn } from "@/api/models";
import { mountCheckpoint } from "./history-base";
import { useMount } from "./mount-store";

/** The mount of a Session with the actions that change it. */
export function useSessionMount(sessionId: string, turns: readonly Turn[] | undefined) {
  const lastSent = useMemo(() => {
    if (!turns) return undefined;
    for (let i = turns.length - 1; i >= 0; i -= 1) {
      const turn = turns[i];
      if (turn?.role === "user") return turn;
    }
    return undefined;
  }, [turns]);
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
