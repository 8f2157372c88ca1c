import { useSyncExternalStore } from "react";
import { readJson, writeJson } from "./storage";
import { createSubscription } from "./subscription";

export type ThemeChoice = "system" | "light" | "dark";

/**
 * Where the choice is kept. index.html reads the same key in a tiny inline script, before the
 * stylesheet applies, so a reload never flashes the other theme: keep the two in step.
 */
export const THEME_KEY = "smriti.theme";

const DARK_QUERY = "(prefers-color-scheme: dark)";
const changed = createSubscription();

function isChoice(value: unknown): value is ThemeChoice {
  return value === "system" || value === "light" || value === "dark";
}

export function readThemeChoice(): ThemeChoice {
  const stored = readJson<unknown>(THEME_KEY);
  return isChoice(stored) ? stored : "system";
}

const osPrefersDark = () => globalThis.matchMedia?.(DARK_QUERY).matches ?? false;

/** The theme drawn for a choice: "system" follows the OS. */
export function resolveTheme(choice: ThemeChoice, prefersDark = osPrefersDark()): "light" | "dark" {
  if (choice === "system") return prefersDark ? "dark" : "light";
  return choice;
}

function apply(choice: ThemeChoice) {
  document.documentElement.dataset.theme = resolveTheme(choice);
}

let current: ThemeChoice = readThemeChoice();

export function setThemeChoice(choice: ThemeChoice) {
  current = choice;
  writeJson(THEME_KEY, choice);
  apply(choice);
  changed.notify();
}

/** Follows the OS while the choice is "system" (the inline script only sets the first value). */
export function watchSystemTheme(): () => void {
  apply(current);
  const query = globalThis.matchMedia?.(DARK_QUERY);
  if (!query) return () => {};
  const onChange = () => {
    if (current === "system") apply(current);
  };
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

export function useThemeChoice(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const choice = useSyncExternalStore(changed.subscribe, () => current);
  return [choice, setThemeChoice];
}
