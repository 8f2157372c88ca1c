import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { guardConsole, shot } from "./helpers";

interface Space {
  id: string;
  name: string;
  head_commit_hash: string | null;
}

/**
 * Export → import from the Spaces page: a Space is downloaded as a bundle, deleted, and brought
 * back from the file with the same id and HEAD; a damaged file is refused, naming its line.
 */
test("a Space exported from the app imports back with the same HEAD, and a damaged one is refused", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const name = `Bundle ${Date.now()}`;
  const space = (await (await request.post("/v4/repos", { data: { name } })).json()) as Space;
  for (const message of ["First", "Second"]) {
    const saved = await request.post("/v4/chat/commit", { data: { repo_id: space.id, message } });
    expect(saved.status()).toBe(201);
  }
  const head = ((await (await request.get(`/v4/repos/${space.id}`)).json()) as Space)
    .head_commit_hash;
  await page.goto("/");
  const row = page.locator(`[data-testid="space-row"][data-space-id="${space.id}"]`);

  const path = await test.step("export downloads the bundle", async () => {
    const download = page.waitForEvent("download");
    await row.getByRole("button", { name: "Export" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^Bundle-\d+\.smriti\.ndjson$/);
    const saved = await file.path();
    const lines = readFileSync(saved, "utf8").trim().split("\n");
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ format: "smriti-space", version: 1 });
    expect(JSON.parse(lines.at(-1) ?? "{}")).toMatchObject({ type: "end", checkpoints: 2 });
    return saved;
  });

  await test.step("a damaged bundle is refused, naming its line, and nothing appears", async () => {
    const damaged = readFileSync(path, "utf8").replace('"message":"Second"', '"message":"Edited"');
    await expect((await request.delete(`/v4/repos/${space.id}`)).status()).toBe(204);
    await page.reload();
    await expect(row).toHaveCount(0);
    await page.getByLabel("Bundle file to import").setInputFiles({
      name: "damaged.ndjson",
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(damaged),
    });
    await expect(page.getByRole("alert")).toContainText("Line 3:");
    await expect(row).toHaveCount(0);
  });

  await test.step("the bundle imports back: same id, same HEAD", async () => {
    await page.getByLabel("Bundle file to import").setInputFiles(path);
    await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}$`));
    const imported = (await (await request.get(`/v4/repos/${space.id}`)).json()) as Space;
    expect(imported.head_commit_hash).toBe(head);
    const verify = await (await request.get(`/v4/repos/${space.id}/verify`)).json();
    expect(verify.ok).toBe(true);
    await page.goto("/");
    await expect(row).toBeVisible();
    await shot(page, "spaces-after-import");
  });
  // The one refused import is the browser's own "400 (Bad Request)" line; nothing else.
  const unexpected = console.problems.filter((p) => !p.includes("status of 400"));
  expect(unexpected, "the browser console shows errors").toEqual([]);
  expect(console.problems.length).toBe(1);
});
