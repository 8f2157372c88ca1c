import { expect, type Page, test } from "@playwright/test";
import { guardConsole, newSpaceWithSession, shot, turn } from "./helpers";

async function newSession(page: Page, name: string) {
  const { sessionId } = await newSpaceWithSession(page, name);
  await page.getByRole("combobox", { name: "Provider" }).selectOption("openai");
  return sessionId;
}

test("a reply streams in, Stop keeps what had arrived, and a reload mid-stream shows the stored pair", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const sessionId = await newSession(page, `Streaming ${Date.now()}`);
  const box = page.getByRole("textbox", { name: "Message" });
  const pending = page.getByTestId("pending-reply");
  const stop = page.getByRole("button", { name: "Stop the reply" });

  await test.step("the reply appears piece by piece, then is stored whole", async () => {
    await box.fill("SLOW STREAM: tell me about Lisbon");
    await box.press("Enter");
    await expect(pending).toContainText("Part 2 of the slow reply.");
    // Still arriving: not all of it yet, and the button is Stop.
    await expect(pending).not.toContainText("Part 12");
    await expect(stop).toBeEnabled();
    await shot(page, "13-streaming");
    await expect(turn(page, 2)).toContainText("Part 12 of the slow reply.", { timeout: 15_000 });
    await expect(turn(page, 2)).not.toContainText("stopped");
    await expect(box).toBeEnabled();
  });

  await test.step("what the model saw for that reply, rebuilt and held to its receipt", async () => {
    await turn(page, 2).getByRole("button", { name: "What the model saw for reply 2" }).click();
    const dialog = page.getByRole("dialog", { name: "What the model saw for reply #2" });
    await expect(dialog.getByTestId("receipt")).toContainText("Rebuilt exactly");
    await expect(dialog).toContainText("SLOW STREAM: tell me about Lisbon");
    await shot(page, "15-what-the-model-saw");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step("Stop keeps the reply so far, marked stopped", async () => {
    await box.fill("SLOW STREAM: and Porto?");
    await box.press("Enter");
    await expect(pending).toContainText("Part 3 of the slow reply.");
    await stop.click();
    // Before the stored pair arrives, the reply so far shows as stopped; then the stored Turn does.
    await expect(turn(page, 4)).toContainText("stopped");
    await expect(turn(page, 4)).toContainText("Part 3 of the slow reply.");
    await expect(turn(page, 4)).not.toContainText("Part 12");
    await expect(box).toBeEnabled();
    await expect(box).toHaveValue("");
    await shot(page, "14-stopped");
  });

  await test.step("Escape stops a reply that has not begun: nothing stored, the text kept", async () => {
    await box.fill("SLOW STREAM: one more");
    await box.press("Enter");
    await page.keyboard.press("Escape");
    await expect(
      page.getByText("Stopped before the reply began: nothing was stored."),
    ).toBeVisible();
    await expect(box).toHaveValue("SLOW STREAM: one more");
    await box.fill("");
  });

  await test.step("a reload during a stream shows the pair once it is stored", async () => {
    await box.fill("SLOW STREAM: what about Sintra?");
    await box.press("Enter");
    await expect(pending).toContainText("Part 2 of the slow reply.");
    await page.reload();
    await expect(turn(page, 6)).toContainText("Part 2 of the slow reply.");
    await expect(turn(page, 6)).toContainText("stopped");
  });

  const turns = (await (await request.get(`/v4/sessions/${sessionId}/turns`)).json()).items;
  expect(turns.map((t: { stopped: boolean }) => t.stopped)).toEqual([
    false,
    false,
    false,
    true,
    false,
    true,
  ]);
  expect(turns[3].content).not.toContain("Part 12");
  console.assertClean();
});
