/**
 * The listener half of a module-level store read with useSyncExternalStore. The stores (API
 * token, mounts, provider choices) live outside React so that any component, and the API client,
 * reads the same value; this is what each of them needs to tell React it changed.
 */
export function createSubscription() {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    notify() {
      for (const listener of listeners) listener();
    },
  };
}
