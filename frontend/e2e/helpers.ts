import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page } from "@playwright/test";

const here = dirname(fileURLToPath(import.meta.url));
export const screenshotDir = resolve(here, "screenshots");
mkdirSync(screenshotDir, { recursive: true });

/** Saves a screenshot of a main screen under e2e/screenshots/ (not committed). */
export async function shot(page: Page, name: string) {
  await page.screenshot({ path: resolve(screenshotDir, `${name}.png`) });
}

/** Collects console errors and uncaught exceptions; the test fails if any appear. */
export function guardConsole(page: Page) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console.error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  return {
    problems,
    assertClean: () => expect(problems, "the browser console shows errors").toEqual([]),
  };
}

/** Types a message, sends it with Enter and waits for the reply to be stored and shown. */
export async function sendMessage(page: Page, text: string, expectedReplySeq: number) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
  await expect(page.locator(`[data-testid="turn"][data-seq="${expectedReplySeq}"]`)).toBeVisible();
  await expect(box).toBeEnabled();
  await expect(box).toHaveValue("");
}

export const turn = (page: Page, seq: number) =>
  page.locator(`[data-testid="turn"][data-seq="${seq}"]`);

/** Creates a Space from the Spaces page and opens a new Session in it. */
export async function newSpaceWithSession(page: Page, name: string) {
  await page.goto("/");
  await page.getByRole("textbox", { name: "Name" }).fill(name);
  await page.getByRole("button", { name: "Create Space" }).click();
  await page.getByRole("button", { name: "+ New Session" }).click();
  await expect(page).toHaveURL(/\/sessions\//);
  const [, spaceId, sessionId] = /\/spaces\/([^/]+)\/sessions\/([^/?]+)/.exec(page.url()) ?? [];
  return { spaceId: spaceId ?? "", sessionId: sessionId ?? "" };
}
