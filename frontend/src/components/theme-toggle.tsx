import { useEffect } from "react";
import { type ThemeChoice, useThemeChoice, watchSystemTheme } from "@/lib/theme";

const options: { value: ThemeChoice; label: string }[] = [
  { value: "system", label: "◐ System" },
  { value: "light", label: "☀ Light" },
  { value: "dark", label: "☾ Dark" },
];

/** Light, dark, or whatever the OS uses; remembered in this browser. */
export function ThemeToggle() {
  const [choice, setChoice] = useThemeChoice();
  useEffect(() => watchSystemTheme(), []);
  return (
    <select
      className="theme-toggle"
      aria-label="Theme"
      title="Theme"
      value={choice}
      onChange={(e) => setChoice(e.target.value as ThemeChoice)}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
