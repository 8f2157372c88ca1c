import { expect, type Request, test } from "@playwright/test";
import { guardConsole, newSpaceWithSession, sendMessage } from "./helpers";

/**
 * A draft is a paid model call: one click on Draft with AI asks for one draft, whether from the
 * chat's header or from inside the Save checkpoint form (issue 43 item 4: the header's button
 * once sent two identical requests, because the form mounted twice per opening).
 */
test("one click on Draft with AI sends one draft request", async ({ page }) => {
  const console = guardConsole(page);
  const drafts: string[] = [];
  let pending = 0;
  const isDraft = (url: string) => new URL(url).pathname === "/v5/checkpoints/draft";
  page.on("request", (request) => {
    if (!isDraft(request.url())) return;
    drafts.push(request.method());
    pending += 1;
  });
  const ended = (request: Request) => {
    if (isDraft(request.url())) pending -= 1;
  };
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  // Not "networkidle": the app's live event stream is always open, so the network never idles.
  // No draft in flight, then as long again as networkidle waits: a late second one would be sent.
  const draftsSettled = async () => {
    await expect.poll(() => pending).toBe(0);
    await page.waitForTimeout(500);
  };
  await newSpaceWithSession(page, `Draft once ${Date.now()}`);
  await sendMessage(page, "We decided to take the train to Porto.", 2);
  const dialog = page.getByRole("dialog", { name: "Save checkpoint" });

  // From the chat's header: the form opens and drafts once.
  await page.locator(".chat-header").getByRole("button", { name: "Draft with AI" }).click();
  await expect(dialog.getByTestId("draft-provenance")).toContainText("from Turns 1–2");
  await expect(dialog.getByTestId("proposal").first()).toBeVisible();
  // Anything late would have been sent by now: the reply to the first is already shown.
  await draftsSettled();
  expect(drafts).toEqual(["POST"]);

  // From the form's own button: one more, once.
  await dialog.getByRole("button", { name: "Draft with AI" }).click();
  await expect(dialog.getByRole("button", { name: "Draft with AI" })).toBeEnabled();
  await draftsSettled();
  expect(drafts).toEqual(["POST", "POST"]);

  // Closed and opened again from the header: a fresh form, and one draft for it.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await page.locator(".chat-header").getByRole("button", { name: "Draft with AI" }).click();
  await expect(dialog.getByTestId("proposal").first()).toBeVisible();
  await draftsSettled();
  expect(drafts).toEqual(["POST", "POST", "POST"]);
  console.assertClean();
});
