import { expect, test } from "@playwright/test";
import { guardConsole, newSpaceWithSession, sendMessage, shot, turn } from "./helpers";

test("a failed send keeps the text, shows the provider's error, and Retry stores the exchange once", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const { sessionId } = await newSpaceWithSession(page, `Retry ${Date.now()}`);
  await page.getByRole("combobox", { name: "Provider" }).selectOption("openai");
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Please FAIL ONCE, then answer.");
  await box.press("Enter");

  const alert = page.getByRole("alert");
  await expect(alert).toContainText("Not sent:");
  await expect(alert).toContainText("openai");
  await expect(box).toHaveValue("Please FAIL ONCE, then answer.");
  await expect(box).toBeEnabled();
  await expect(page.getByTestId("turn")).toHaveCount(0);
  await shot(page, "08-send-failed");

  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(turn(page, 2)).toContainText("Fake OpenAI");
  await expect(box).toHaveValue("");
  await expect(page.getByRole("alert")).toHaveCount(0);

  const turns = await (await request.get(`/v4/sessions/${sessionId}/turns`)).json();
  expect(turns.items).toHaveLength(2);
  expect(turns.items[0].request_id).toMatch(/^web-[0-9a-f]{32}$/);
  // The only console errors are the browser's own report of the expected 502.
  const unexpected = console.problems.filter((p) => !p.includes("status of 502"));
  expect(unexpected).toEqual([]);
});

test("saving on a HEAD that moved shows a clear conflict and keeps the edits", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const { spaceId } = await newSpaceWithSession(page, `Conflict ${Date.now()}`);
  await sendMessage(page, "Let us plan the storage.", 2);

  await page.getByRole("button", { name: "Save checkpoint" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Save checkpoint" });
  await dialog.getByRole("textbox", { name: "Message *" }).fill("My plan");
  await dialog.getByRole("button", { name: "+ Add decision" }).click();
  await dialog.getByRole("textbox", { name: "Decision 1", exact: true }).fill("Use PostgreSQL");

  // Meanwhile an agent saves a Checkpoint in the same Space.
  const agent = await request.post("/v4/chat/commit", {
    data: {
      repo_id: spaceId,
      message: "Agent's plan",
      metadata: { author: { kind: "agent", name: "planner" } },
    },
  });
  expect(agent.status()).toBe(201);

  await dialog.getByRole("button", { name: "Save checkpoint" }).click();
  const conflict = dialog.getByTestId("conflict");
  await expect(conflict).toContainText("HEAD moved while you were editing");
  await expect(conflict).toContainText("HEAD is now");
  await expect(conflict).toContainText("“Agent's plan”");
  await expect(dialog.getByRole("textbox", { name: "Decision 1", exact: true })).toHaveValue(
    "Use PostgreSQL",
  );
  await shot(page, "09-conflict");
  let commits = await (await request.get(`/v4/repos/${spaceId}/commits`)).json();
  expect(commits.items).toHaveLength(1);

  await conflict.getByRole("button", { name: "Save on top of the new HEAD" }).click();
  await expect(dialog).toBeHidden();
  commits = await (await request.get(`/v4/repos/${spaceId}/commits`)).json();
  expect(commits.items.map((c: { message: string }) => c.message)).toEqual([
    "My plan",
    "Agent's plan",
  ]);
  await expect(page.getByTestId("space-head")).toContainText("My plan");
  const unexpected = console.problems.filter((p) => !p.includes("status of 409"));
  expect(unexpected).toEqual([]);
});

test("divergent Checkpoint lines show side by side in the timeline", async ({ page, request }) => {
  const console = guardConsole(page);
  const space = await (
    await request.post("/v4/repos", { data: { name: `Fork ${Date.now()}` } })
  ).json();
  const commit = async (message: string, parent?: string) =>
    (
      await request.post("/v4/chat/commit", {
        data: { repo_id: space.id, message, ...(parent ? { parent_commit_id: parent } : {}) },
      })
    ).json();
  const base = await commit("Base");
  await commit("Line A");
  await commit("Line B (forked from Base)", base.id);
  await page.goto(`/spaces/${space.id}`);
  const rows = page.getByRole("list", { name: "Checkpoint history" }).getByRole("listitem");
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText("HEAD");
  await expect(rows.first()).toContainText("Line B");
  // Two lanes: the graph of the fork is wider than a single line's.
  const widths = await page
    .locator(".timeline-wrap > .graph")
    .evaluateAll((svgs) => svgs.map((s) => s.getAttribute("width")));
  expect(widths).toHaveLength(1);
  expect(Number(widths[0])).toBeGreaterThan(24);
  // The default line's HEAD carries its name.
  await expect(rows.first().getByTestId("line-head")).toHaveText("main");
  await page.getByRole("button", { name: "Verify history" }).click();
  await expect(page.getByTestId("verify")).toContainText("3 Checkpoints verified");
  // The forked Checkpoint names its parent.
  await page
    .getByRole("list", { name: "Checkpoint history" })
    .getByRole("button", { name: /Line B/ })
    .click();
  await expect(page.locator(".detail-facts")).toContainText(`${base.commit_hash.slice(0, 7)} Base`);
  await page.getByRole("button", { name: "← All Checkpoints" }).click();

  // Line A was the better line: restore its state on the default line, so the next agent
  // reading HEAD starts there. The restore is a new Checkpoint on top of the line's HEAD.
  const lineBHead = (await (await request.get(`/v4/repos/${space.id}/head`)).json()) as {
    id: string;
  };
  await page
    .getByRole("list", { name: "Checkpoint history" })
    .getByRole("button", { name: /Line A/ })
    .click();
  await page.getByRole("button", { name: "Restore this state…" }).click();
  const dialog = page.getByRole("dialog", { name: "Restore this state" });
  await expect(dialog.getByRole("textbox", { name: "Message" })).toHaveValue("Restore “Line A”");
  await expect(dialog.getByRole("combobox", { name: "Line" })).toHaveValue("main");
  await dialog.getByRole("button", { name: "Restore on main" }).click();
  await expect(dialog).toBeHidden();
  const head = await (await request.get(`/v4/repos/${space.id}/head`)).json();
  const lineA = (await (await request.get(`/v4/repos/${space.id}/commits`)).json()).items.find(
    (c: { message: string }) => c.message === "Line A",
  );
  expect(head.message).toBe("Restore “Line A”");
  expect(head.parent_commit_id).toBe(lineBHead.id);
  expect(head.metadata.restored_from.commit_id).toBe(lineA.id);
  await page.getByRole("button", { name: "← All Checkpoints" }).click();
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toContainText("HEAD");
  await expect(rows.first()).toContainText("Restore “Line A”");
  await shot(page, "10-fork-timeline");
  console.assertClean();
});

test("Spaces can be renamed and deleted after confirmation", async ({ page }) => {
  const console = guardConsole(page);
  const name = `Rename me ${Date.now()}`;
  await page.goto("/");
  await page.getByRole("textbox", { name: "Name" }).fill(name);
  await page.getByRole("button", { name: "Create Space" }).click();
  await expect(page).toHaveURL(/\/spaces\//);
  const spaceId = page.url().split("/spaces/")[1];
  await page.goto("/");
  const row = page.locator(`[data-space-id="${spaceId}"]`);
  await row.getByRole("button", { name: "Rename" }).click();
  await row.getByRole("textbox", { name: "New name" }).fill(`${name} (renamed)`);
  await row.getByRole("button", { name: "Save" }).click();
  const renamed = row.filter({ hasText: `${name} (renamed)` });
  await expect(renamed).toBeVisible();
  await expect(renamed).toContainText("No Checkpoint yet");

  await renamed.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: `Delete “${name} (renamed)”?` });
  await expect(confirm).toContainText("all its Sessions, Turns and Checkpoints");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(renamed).toBeVisible();
  await renamed.getByRole("button", { name: "Delete" }).click();
  await confirm.getByRole("button", { name: "Delete Space" }).click();
  await expect(page.getByTestId("space-row").filter({ hasText: name })).toHaveCount(0);
  console.assertClean();
});

test.describe("at a phone's width", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the chat, the Checkpoints and the context are reachable and fit the screen", async ({
    page,
  }) => {
    const console = guardConsole(page);
    await newSpaceWithSession(page, `Phone ${Date.now()}`);
    await sendMessage(page, "We decided to keep it **small**.", 2);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, "no horizontal scrolling").toBeLessThanOrEqual(0);
    await shot(page, "11-phone-chat");

    await page.getByRole("button", { name: "Save checkpoint" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Save checkpoint" });
    await dialog.getByRole("textbox", { name: "Message *" }).fill("Small");
    await dialog.getByRole("button", { name: "Save checkpoint" }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole("button", { name: "Checkpoints", exact: true }).click();
    await expect(page.getByRole("heading", { name: /Small/ })).toBeVisible();
    await page.getByRole("button", { name: "Mount in a new Session" }).click();
    await expect(page.getByTestId("mount-status")).toContainText("Based on Checkpoint");
    // On a phone the context is a view of its own (issue 44 item 14).
    await page
      .getByRole("navigation", { name: "Views" })
      .getByRole("button", { name: "Context" })
      .click();
    await expect(page.getByTestId("context-scope")).toContainText("(this Session's base)");
    await shot(page, "12-phone-context");

    await page.getByRole("button", { name: "Chat", exact: true }).click();
    await expect(page.getByTestId("mount-boundary")).toBeVisible();
    await page.getByRole("button", { name: "Sessions", exact: true }).click();
    await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
    console.assertClean();
  });
});
