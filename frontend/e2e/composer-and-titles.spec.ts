import { expect, test } from "@playwright/test";
import { guardConsole, newSpaceWithSession, turn } from "./helpers";

// Issue 44 items 17 and 18: the box empties as a message goes and gets it back if nothing was
// stored; a new Session is titled by its first message's first words, on the server.

test("the box is empty while the reply streams, and the new Session takes its first words as its title", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const { sessionId } = await newSpaceWithSession(page, `Titles ${Date.now()}`);
  const heading = page.locator(".chat-title h1");
  const listed = page.locator(`.session-link[href$="${sessionId}"] .session-title`);
  await expect(heading).toHaveText("New Session");
  await expect(listed).toHaveText("New Session");

  await page.getByRole("combobox", { name: "Provider" }).selectOption("openai");
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("SLOW STREAM: plan a weekend in Lisbon with friends");
  await box.press("Enter");
  // The fake server sends a part every 400 ms: the message is pending, the box already empty.
  await expect(page.getByTestId("pending-reply")).toContainText("Part 2 of the slow reply.");
  await expect(box).toHaveValue("");
  await expect(turn(page, 2)).toContainText("Part 12 of the slow reply.", { timeout: 15_000 });

  const title = "SLOW STREAM: plan a weekend in…";
  await expect(listed).toHaveText(title);
  await expect(heading).toHaveText(title);
  expect((await (await request.get(`/v4/sessions/${sessionId}`)).json()).title).toBe(title);

  // Renaming stays possible, and the next message does not title it again.
  await page.getByRole("button", { name: "Rename Session" }).click();
  const name = page.getByRole("textbox", { name: "Session name" });
  await name.fill("Lisbon weekend");
  await name.press("Enter");
  await expect(heading).toHaveText("Lisbon weekend");
  await box.fill("And Sintra?");
  await box.press("Enter");
  await expect(turn(page, 4)).toBeVisible();
  await expect(listed).toHaveText("Lisbon weekend");
  console.assertClean();
});

test("a send that fails before the server took it puts the text back", async ({ page }) => {
  const console = guardConsole(page);
  const { sessionId } = await newSpaceWithSession(page, `Lost text ${Date.now()}`);
  const box = page.getByRole("textbox", { name: "Message" });
  // The network drops the request: the server never sees it.
  await page.route("**/v4/chat/send", (route) => route.abort("connectionreset"), { times: 1 });
  const typed = "Plan the trip:\n- Lisbon\n- Porto";
  await box.fill(typed);
  await box.press("Enter");
  await expect(page.getByRole("alert")).toContainText("Not sent:");
  await expect(box).toHaveValue(typed);
  await expect(box).toBeEnabled();
  await expect(page.getByTestId("turn")).toHaveCount(0);

  // Sent again from the box, it goes, and the box empties.
  await box.press("Enter");
  await expect(turn(page, 2)).toBeVisible();
  await expect(box).toHaveValue("");
  await expect(page.getByRole("alert")).toHaveCount(0);
  const unexpected = console.problems.filter((p) => !p.includes("ERR_CONNECTION_RESET"));
  expect(unexpected, `Session ${sessionId}`).toEqual([]);
});
