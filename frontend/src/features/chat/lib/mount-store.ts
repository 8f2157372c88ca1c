import { useCallback, useSyncExternalStore } from "react";
import { readJson, removeKey, writeJson } from "@/lib/storage";
import { createSubscription } from "@/lib/subscription";
import type { Mount } from "./history-base";

/**
 * Where the mount of each Session lives: a UI concept (not stored by the server), kept in
 * localStorage so that a reload keeps it. `null` = explicitly unmounted.
 */
type Stored = { mount: Mount | null };

const changes = createSubscription();
const memory = new Map<string, Stored | undefined>();
const storageKey = (sessionId: string) => `smriti.mount.${sessionId}`;

function read(sessionId: string): Stored | undefined {
  if (!memory.has(sessionId)) memory.set(sessionId, readJson<Stored>(storageKey(sessionId)));
  return memory.get(sessionId);
}

export function setMount(sessionId: string, mount: Mount | null): void {
  const value: Stored = { mount };
  memory.set(sessionId, value);
  writeJson(storageKey(sessionId), value);
  changes.notify();
}

export function forgetMount(sessionId: string): void {
  memory.delete(sessionId);
  removeKey(storageKey(sessionId));
  changes.notify();
}

export interface LastSent {
  checkpoint_id: string | null;
  history_base_seq: number | null;
}

/**
 * The Session's mount. When this browser never mounted or unmounted it, the mount the last
 * message was sent with is used, so a Session continued elsewhere opens as it was left.
 */
export function useMount(sessionId: string, lastSent: LastSent | undefined) {
  const stored = useSyncExternalStore(changes.subscribe, () => read(sessionId));
  let mount: Mount | null = null;
  if (stored) mount = stored.mount;
  else if (lastSent?.checkpoint_id && lastSent.history_base_seq != null)
    mount = { checkpointId: lastSent.checkpoint_id, historyBaseSeq: lastSent.history_base_seq };
  const set = useCallback((next: Mount | null) => setMount(sessionId, next), [sessionId]);
  return [mount, set] as const;
}
