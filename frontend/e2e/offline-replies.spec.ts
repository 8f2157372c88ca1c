import { expect, test } from "@playwright/test";
import { guardConsole, newSpaceWithSession, sendMessage, turn } from "./helpers";

/**
 * A Session that starts with the offline provider and switches to a model (issue 43 item 4): the
 * offline replies only described their context, so the model is not sent them as its own; the
 * context panel and the reply's rebuilt context show what went out and name what was left out.
 */
test("switching from the offline provider to a model leaves the offline replies out, and says so", async ({
  page,
}) => {
  const console = guardConsole(page);
  await newSpaceWithSession(page, `Offline then a model ${Date.now()}`);
  await sendMessage(page, "We fly to Lisbon on Friday.", 2);
  await sendMessage(page, "The hotel is near the river.", 4);
  await expect(turn(page, 2)).toContainText("[offline provider:");

  await page.getByRole("combobox", { name: "Provider" }).selectOption("openai");
  await page.getByRole("tab", { name: "Context" }).click();
  const panel = page.getByTestId("context-panel");
  await expect(panel).toContainText("Next message goes to openai");
  await expect(panel.getByTestId("context-left-out")).toContainText("2 Turns not sent (#2, #4).");
  await expect(panel.getByTestId("context-left-out")).toContainText("offline provider's replies");
  const seqs = await panel
    .getByTestId("context-message")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-seq")));
  expect(seqs).toEqual(["1", "3"]);

  // The fake model says how many messages it read: the two the person wrote, and this one.
  await sendMessage(page, "Summarise the plan.", 6);
  await expect(turn(page, 6)).toContainText("read 3 message(s)");

  await page.getByRole("button", { name: "What the model saw for reply 6" }).click();
  const dialog = page.getByRole("dialog", { name: "What the model saw for reply #6" });
  await expect(dialog.getByTestId("receipt")).toContainText("Rebuilt exactly");
  await expect(dialog.getByTestId("context-left-out")).toContainText("2 Turns not sent (#2, #4).");
  await expect(dialog.locator(".answered-message")).toHaveCount(3);
  console.assertClean();
});
