import { useSyncExternalStore } from "react";
import { readJson, removeKey, writeJson } from "@/lib/storage";
import { createSubscription } from "@/lib/subscription";

/**
 * The API token, for a server started with SMRITI_API_TOKEN (every API route then needs
 * `Authorization: Bearer <token>`). Kept in this browser's localStorage; a 401 asks for it.
 */
const KEY = "smriti.api-token";
const changes = createSubscription();
let token: string | null = readJson<string>(KEY) ?? null;
let rejected = false;

export function authHeaders(): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

export function setApiToken(next: string | null) {
  token = next?.trim() || null;
  if (token) writeJson(KEY, token);
  else removeKey(KEY);
  rejected = false;
  changes.notify();
}

/** Called by the client on a 401: the token is missing or wrong. */
export function markUnauthorized() {
  if (!rejected) {
    rejected = true;
    changes.notify();
  }
}

/** True after the server answered 401, until a new token is set. */
export function useTokenRequired(): boolean {
  return useSyncExternalStore(changes.subscribe, () => rejected);
}
