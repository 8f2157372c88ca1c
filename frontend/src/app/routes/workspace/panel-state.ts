import { useCallback } from "react";
import { useLocation, useSearch } from "wouter";

export type PanelTab = "checkpoints" | "context" | "compare" | "proposals";

export interface PanelState {
  tab: PanelTab;
  /** The Checkpoint shown in detail (tab "checkpoints"). */
  selected: string | null;
  from: string | null;
  to: string | null;
}

export type SetPanel = (patch: Partial<PanelState>) => void;

/** The right-hand panel's state lives in the query string, so a reload (or a shared link) keeps it. */
export function usePanelState() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const state = stateFrom(new URLSearchParams(search));

  const update = useCallback<SetPanel>(
    (patch) => {
      const next = new URLSearchParams(search);
      const merged = { ...stateFrom(next), ...patch };
      const entries: [string, string | null][] = [
        ["panel", merged.tab === "checkpoints" ? null : merged.tab],
        ["checkpoint", merged.selected],
        ["from", merged.from],
        ["to", merged.to],
      ];
      for (const [key, value] of entries) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      const query = next.toString();
      navigate(query ? `${location}?${query}` : location, { replace: true });
    },
    [search, location, navigate],
  );
  return [state, update] as const;
}

function stateFrom(params: URLSearchParams): PanelState {
  const tab = params.get("panel");
  return {
    tab: tab === "context" || tab === "compare" || tab === "proposals" ? tab : "checkpoints",
    selected: params.get("checkpoint"),
    from: params.get("from"),
    to: params.get("to"),
  };
}
