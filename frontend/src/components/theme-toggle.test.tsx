import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { THEME_KEY } from "@/lib/theme";
import { ThemeToggle } from "./theme-toggle";

let osDark = false;
beforeEach(() => {
  osDark = false;
  vi.stubGlobal(
    "matchMedia",
    vi.fn(() => ({
      matches: osDark,
      addEventListener: () => {},
      removeEventListener: () => {},
    })),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete document.documentElement.dataset.theme;
});

/** Runs index.html's inline script, as the browser does before the stylesheet applies. */
function runBootScript() {
  const html = readFileSync(resolve(__dirname, "../../index.html"), "utf8");
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!script) throw new Error("index.html has no inline theme script");
  new Function(script)();
  return document.documentElement.dataset.theme;
}

describe("the theme", () => {
  it("is chosen in the top bar, applied at once and remembered", async () => {
    const user = userEvent.setup();
    render(<ThemeToggle />);
    const toggle = screen.getByRole("combobox", { name: "Theme" });
    expect(toggle).toHaveValue("system");
    await user.selectOptions(toggle, "dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(localStorage.getItem(THEME_KEY)).toBe('"dark"');
    await user.selectOptions(toggle, "light");
    expect(document.documentElement.dataset.theme).toBe("light");
  });

  it("is set before the first paint from the stored choice, else the OS's (no flash)", () => {
    localStorage.setItem(THEME_KEY, JSON.stringify("dark"));
    expect(runBootScript()).toBe("dark");
    localStorage.setItem(THEME_KEY, JSON.stringify("light"));
    osDark = true;
    expect(runBootScript()).toBe("light");
    localStorage.setItem(THEME_KEY, JSON.stringify("system"));
    expect(runBootScript()).toBe("dark");
    localStorage.removeItem(THEME_KEY);
    osDark = false;
    expect(runBootScript()).toBe("light");
  });
});
