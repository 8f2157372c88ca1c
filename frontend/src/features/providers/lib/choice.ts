import { useCallback, useSyncExternalStore } from "react";
import type { ProviderList } from "@/api/models";
import { createSubscription } from "@/lib/subscription";

/** The provider and model chosen for the next message of a Session. */
export interface ProviderChoice {
  provider: string;
  model: string;
}

const choices = new Map<string, ProviderChoice>();
const changes = createSubscription();

export function setProviderChoice(sessionId: string, choice: ProviderChoice) {
  choices.set(sessionId, choice);
  changes.notify();
}

/**
 * The choice in effect: the one picked in this tab, else the Session's last provider and model
 * (when still configured), else the server's default provider with its default model.
 */
export function resolveChoice(
  picked: ProviderChoice | undefined,
  sessionLast: { provider: string | null; model: string | null } | undefined,
  providers: ProviderList | undefined,
): ProviderChoice | null {
  if (picked) return picked;
  if (!providers) return null;
  const configured = (name: string | null) =>
    providers.items.find((p) => p.name === name && p.configured);
  const last = configured(sessionLast?.provider ?? null);
  if (last) return { provider: last.name, model: sessionLast?.model ?? last.default_model };
  const fallback =
    configured(providers.default_provider) ?? providers.items.find((p) => p.configured);
  return fallback ? { provider: fallback.name, model: fallback.default_model } : null;
}

export function useProviderChoice(
  sessionId: string,
  sessionLast: { provider: string | null; model: string | null } | undefined,
  providers: ProviderList | undefined,
) {
  const picked = useSyncExternalStore(changes.subscribe, () => choices.get(sessionId));
  const choice = resolveChoice(picked, sessionLast, providers);
  const set = useCallback(
    (next: ProviderChoice) => setProviderChoice(sessionId, next),
    [sessionId],
  );
  return [choice, set] as const;
}
