import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { guardConsole, shot } from "./helpers";

const EXPORT = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../backend/tests/transcripts/fixtures/chatgpt_conversations.json",
);

/** A ChatGPT data export brought into a Space from its Sessions list, and one conversation opened. */
test("a ChatGPT export imports as Sessions, with what was skipped said", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const space = (await (
    await request.post("/v4/repos", { data: { name: `Conversations ${Date.now()}` } })
  ).json()) as { id: string };
  await page.goto(`/spaces/${space.id}`);
  const sessions = page.getByRole("navigation", { name: "Sessions" });

  await sessions.getByLabel("Conversations file to import").setInputFiles({
    name: "conversations.json",
    mimeType: "application/json",
    buffer: readFileSync(EXPORT),
  });
  await expect(sessions.getByRole("status")).toContainText(
    "Imported 4 conversations from ChatGPT.",
  );
  await sessions.getByText("3 conversations skipped").click();
  await expect(sessions).toContainText(
    "Broken node: conversation 4: mapping['root'].children must be a list of node ids.",
  );

  await shot(page, "conversations-imported");
  await sessions.getByRole("link", { name: /Lisbon trip/ }).click();
  const turns = page.getByTestId("turn");
  await expect(turns).toHaveCount(6);
  await expect(turns.first()).toContainText("Plan three days in Lisbon for May.");
  await expect(turns.nth(2)).toContainText("Which line reaches the castle?");
  console.assertClean();
});
