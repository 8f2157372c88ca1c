import { useCallback, useState } from "react";
import { isRecord } from "@/lib/is-record";
import { readJson, removeKey } from "@/lib/storage";
import type { Mount } from "./history-base";

/**
 * A mount this browser kept before mounts were server state: earlier versions of the app stored
 * `{mount: {checkpointId, historyBaseSeq} | null}` under `smriti.mount.<session>` in localStorage,
 * and nowhere else. What the person chose is not dropped silently: the chat offers, once, to
 * start the Session based on that Checkpoint; either answer forgets the key. An explicit unmount
 * (`mount: null`) chose nothing to keep, and is forgotten at once.
 */
const storageKey = (sessionId: string) => `smriti.mount.${sessionId}`;

export function readLegacyMount(sessionId: string): Mount | null {
  const stored = readJson<unknown>(storageKey(sessionId));
  if (stored === undefined) return null;
  const mount = isRecord(stored) ? stored.mount : null;
  if (
    isRecord(mount) &&
    typeof mount.checkpointId === "string" &&
    typeof mount.historyBaseSeq === "number"
  ) {
    return { checkpointId: mount.checkpointId, historyBaseSeq: mount.historyBaseSeq };
  }
  removeKey(storageKey(sessionId));
  return null;
}

export function forgetLegacyMount(sessionId: string): void {
  removeKey(storageKey(sessionId));
}

/** The Session's legacy mount, read once when it opens, and how to forget it. */
export function useLegacyMount(sessionId: string) {
  const [mount, setMount] = useState(() => readLegacyMount(sessionId));
  const forget = useCallback(() => {
    forgetLegacyMount(sessionId);
    setMount(null);
  }, [sessionId]);
  return [mount, forget] as const;
}
