import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, deflateRawSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { guardConsole, shot } from "./helpers";

const FIXTURES = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../backend/tests/transcripts/fixtures",
);
const EXPORT = resolve(FIXTURES, "chatgpt_conversations.json");

/** A ZIP of one deflated file, as a data export downloads (its local header, data, directory). */
function zipOf(name: string, content: Buffer): Buffer {
  const fileName = Buffer.from(name);
  const data = deflateRawSync(content);
  const sizes = (header: Buffer, at: number) => {
    header.writeUInt32LE(crc32(content), at);
    header.writeUInt32LE(data.length, at + 4);
    header.writeUInt32LE(content.length, at + 8);
  };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt16LE(8, 8); // deflated
  sizes(local, 14);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  sizes(central, 16);
  central.writeUInt16LE(fileName.length, 28);
  const directory = Buffer.concat([central, fileName]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(local.length + fileName.length + data.length, 16);
  return Buffer.concat([local, fileName, data, directory, end]);
}

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

/** A Claude data export's ZIP, as it downloads, then the same again: what the Sessions left out is
 * said, and the second import skips what the Space holds. */
test("a Claude export's ZIP imports once, saying what it left out", async ({ page, request }) => {
  const console = guardConsole(page);
  const space = (await (
    await request.post("/v4/repos", { data: { name: `Zipped conversations ${Date.now()}` } })
  ).json()) as { id: string };
  await page.goto(`/spaces/${space.id}`);
  const sessions = page.getByRole("navigation", { name: "Sessions" });
  const file = {
    name: "data-2025-03-05.zip",
    mimeType: "application/zip",
    buffer: zipOf("conversations.json", readFileSync(resolve(FIXTURES, "claude_export.json"))),
  };

  await sessions.getByLabel("Conversations file to import").setInputFiles(file);
  const result = sessions.getByRole("status");
  await expect(result).toContainText("Imported 3 conversations from Claude.");
  await expect(result).toContainText(
    "Left out: 1 tool call, 1 piece of reasoning, 1 message on other branches, 1 image, 1 attachment.",
  );
  await shot(page, "conversations-zip-imported");

  await sessions.getByLabel("Conversations file to import").setInputFiles(file);
  await expect(result).toContainText("Imported 0 conversations from Claude.");
  await sessions.getByText("3 conversations skipped").click();
  await expect(sessions).toContainText(
    "Autovacuum falling behind: conversation 1 is in this Space already",
  );
  await sessions.getByRole("link", { name: /Autovacuum falling behind/ }).click();
  const turns = page.getByTestId("turn");
  await expect(turns).toHaveCount(4);
  await expect(turns.nth(1)).toContainText(
    "With the default autovacuum_vacuum_scale_factor of 0.2",
  );
  await expect(turns.nth(1)).not.toContainText("Likely causes");
  console.assertClean();
});
