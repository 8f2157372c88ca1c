import { expect, test } from "@playwright/test";
import { guardConsole, shot } from "./helpers";

/**
 * Agent keys from the app (SYSTEM.md §13), against the real backend: make a key for one Space
 * from the main navigation, copy it (shown once), use it, revoke it; the list follows each step.
 * An app running on an agent's key is told plainly that agents cannot manage keys.
 */
test("an agent key is made for one Space, copied once, used and revoked", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const stamp = Date.now();
  const mine = (await (
    await request.post("/v4/repos", { data: { name: `Mine ${stamp}` } })
  ).json()) as {
    id: string;
  };
  await request.post("/v4/repos", { data: { name: `Not for agents ${stamp}` } });
  const agent = `coder-${stamp}`;
  const row = page.locator(`[data-testid="agent-row"][data-agent="${agent}"]`);

  let key = "";
  await test.step("make a key for one Space from the Agents page", async () => {
    await page.goto("/");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Agents" })
      .click();
    await expect(page).toHaveURL(/\/agents$/);
    const form = page.getByRole("form", { name: "New agent key" });
    await form.getByRole("textbox", { name: "Agent name" }).fill(agent);
    await expect(form.getByRole("button", { name: "Make key" })).toBeDisabled();
    await form.getByRole("checkbox", { name: `Mine ${stamp}` }).check();
    await form.getByRole("button", { name: "Make key" }).click();
    const made = page.getByTestId("new-key");
    await expect(made).toContainText("you will not see it again");
    key = await made.getByRole("textbox", { name: "The new key" }).inputValue();
    expect(key).toMatch(/^smr_[A-Za-z0-9_-]{40,}$/);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await made.getByRole("button", { name: "Copy key" }).click();
    await expect(made.getByRole("button", { name: "Copy key" })).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shot(page, "agents-new-key");
    await made.getByRole("button", { name: "I have copied it" }).click();
    await expect(page.getByTestId("new-key")).toHaveCount(0);
    // Shown once: nothing on the page holds it any more.
    await expect(page.locator("body")).not.toContainText(key);
    await expect(row).toContainText(`Reaches Mine ${stamp}`);
    await expect(row).toContainText("reads and writes");
    await expect(row).toContainText("never used");
  });

  await test.step("the key works, and the list says when it was used", async () => {
    // Which Spaces an agent sees is the server's (tests/access); here: the key is accepted.
    const read = await request.get(`/v4/repos/${mine.id}`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(read.status()).toBe(200);
    await page.reload();
    await expect(row).toContainText(/last used (just now|\d+ minutes? ago)/);
  });

  await test.step("revoke it: confirm, the list says revoked, the key is refused", async () => {
    await row.getByRole("button", { name: `Revoke the key of ${agent}` }).click();
    const confirm = page.getByRole("dialog", { name: `Revoke the key of “${agent}”?` });
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await expect(confirm).toBeHidden();
    await expect(row).toContainText("revoked");
    await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
    await shot(page, "agents-revoked");
    await expect
      .poll(
        async () =>
          (
            await request.get("/v4/repos", { headers: { Authorization: `Bearer ${key}` } })
          ).status(),
        { timeout: 5_000 },
      )
      .toBe(401);
  });
  console.assertClean();
});

test("an app running on an agent's key says plainly that agents cannot manage keys", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const made = (await (
    await request.post("/v5/agents", {
      data: { name: `reader-${Date.now()}`, spaces: null, write: false },
    })
  ).json()) as { id: string; token: string };
  await page.addInitScript((token) => {
    localStorage.setItem("smriti.api-token", JSON.stringify(token));
  }, made.token);
  await page.goto("/agents");
  await expect(page.getByTestId("agents-refused")).toContainText(
    "agents cannot see or manage agent keys",
  );
  await expect(page.getByRole("form", { name: "New agent key" })).toHaveCount(0);
  // The refusal is the page's message, not an error the browser reports beside it.
  expect(console.problems.filter((p) => !p.includes("status of 403"))).toEqual([]);
  await request.delete(`/v5/agents/${made.id}`);
});
