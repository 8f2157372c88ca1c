import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { guardConsole, sendMessage, shot, turn } from "./helpers";

const here = dirname(fileURLToPath(import.meta.url));
const smriti = process.env.SMRITI_BIN ?? resolve(here, "../../.venv/bin/smriti");

interface Checkpoint {
  id: string;
  commit_hash: string;
  parent_commit_id: string | null;
  decisions: string[];
  assumptions: string[];
}

/**
 * Lines, forks and carry-forward from the app, against the real backend: mount an old Checkpoint
 * (a new Session based on it) → send → save as a new line → the next save goes on from it on that
 * line → continue from it in a new Session → send → make that line the default → an agent's
 * `smriti head` sees it.
 */
test("an old state continues as its own line, in a forked Session, and becomes the default", async ({
  page,
  request,
  baseURL,
}) => {
  const console = guardConsole(page);
  const space = (await (
    await request.post("/v4/repos", { data: { name: `Lines ${Date.now()}` } })
  ).json()) as { id: string };
  const commit = async (data: Record<string, unknown>) =>
    (await (
      await request.post("/v4/chat/commit", { data: { repo_id: space.id, ...data } })
    ).json()) as Checkpoint;
  const old = await commit({
    message: "Fly on Friday",
    decisions: ["Fly to Lisbon on Friday"],
    assumptions: ["Budget 2000 EUR"],
  });
  const head = await commit({
    message: "Rent a car",
    decisions: ["Fly to Lisbon on Friday", "Rent a car"],
    assumptions: ["Budget 2000 EUR"],
  });
  const oldShort = old.commit_hash.slice(0, 7);

  await test.step("mount the old Checkpoint: a new Session based on it; send", async () => {
    await page.goto(`/spaces/${space.id}`);
    await page.getByRole("button", { name: "+ New Session" }).click();
    await expect(page).toHaveURL(/\/sessions\//);
    await sendMessage(page, "Where were we?", 2);
    const first = page.url();
    await page
      .getByRole("list", { name: "Checkpoint history" })
      .getByRole("button", { name: /Fly on Friday/ })
      .click();
    await page.getByRole("button", { name: "Mount in a new Session" }).click();
    await expect(page).not.toHaveURL(first);
    await expect(page.getByTestId("mount-status")).toContainText(`Based on Checkpoint ${oldShort}`);
    await sendMessage(page, "We decided to take the train to Sintra.", 2);
  });
  const originUrl = page.url();

  let saved: Checkpoint | undefined;
  await test.step("save from the old state as a new line", async () => {
    await page.getByRole("button", { name: "Save checkpoint" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Save checkpoint" });
    await expect(dialog.getByTestId("form-parent")).toContainText(
      `Starts from this Session's base ${oldShort}`,
    );
    const where = dialog.getByTestId("save-where");
    await expect(where).toContainText(`${oldShort} is not the HEAD of line main`);
    await expect(where).toContainText("Rent a car");
    await dialog.getByRole("textbox", { name: "New line name" }).fill("train/sintra");
    await dialog.getByRole("textbox", { name: "Message *" }).fill("Train instead");
    await dialog.getByRole("button", { name: "+ Add decision" }).click();
    await dialog.getByRole("textbox", { name: "Decision 2", exact: true }).fill("Train to Sintra");
    await expect(dialog.getByTestId("form-diff")).toContainText("added: Train to Sintra");
    await expect(dialog.getByTestId("parent-diff")).toContainText("+1 −0 ~0");
    await shot(page, "11-save-new-line");
    await dialog.getByRole("button", { name: "Save as a new line" }).click();
    await expect(dialog).toBeHidden();
    saved = (await (
      await request.get(`/v4/repos/${space.id}/head?branch=${encodeURIComponent("train/sintra")}`)
    ).json()) as Checkpoint;
    expect(saved.parent_commit_id).toBe(old.id);
    // Carried forward: the old state plus the one change, nothing dropped.
    expect(saved.decisions).toEqual(["Fly to Lisbon on Friday", "Train to Sintra"]);
    expect(saved.assumptions).toEqual(["Budget 2000 EUR"]);
    // The default line did not move.
    const mainHead = (await (await request.get(`/v4/repos/${space.id}/head`)).json()) as Checkpoint;
    expect(mainHead.id).toBe(head.id);
  });
  const savedShort = saved?.commit_hash.slice(0, 7) ?? "";

  await test.step("the next save goes on from what was saved, on the line it made", async () => {
    await expect(page.getByTestId("saved-offer")).toContainText(
      `Saved ${savedShort} “Train instead” on line train/sintra.`,
    );
    await page.getByRole("button", { name: "Save checkpoint" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Save checkpoint" });
    await expect(dialog.getByTestId("form-parent")).toContainText(
      `Starts from what this Session saved last, ${savedShort}`,
    );
    await expect(dialog.getByTestId("form-parent")).toContainText("Saves on line train/sintra.");
    await expect(dialog.getByTestId("save-where")).toHaveCount(0);
    // What was saved is all there: nothing to add again.
    await expect(dialog.getByRole("textbox", { name: "Decision 2", exact: true })).toHaveValue(
      "Train to Sintra",
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("tab", { name: "Context" }).click();
    await expect(page.getByTestId("context-next-save")).toContainText(
      `starts from ${savedShort} “Train instead” on line train/sintra`,
    );
    await page.getByRole("tab", { name: /Checkpoints/ }).click();
  });

  await test.step("the timeline shows both lines as lanes, each HEAD labelled", async () => {
    await page.getByRole("button", { name: "← All Checkpoints" }).click();
    const rows = page.getByRole("list", { name: "Checkpoint history" }).getByRole("listitem");
    await expect(rows).toHaveCount(3);
    await expect(rows.first().getByTestId("line-head")).toHaveText("train/sintra");
    await expect(rows.nth(1).getByTestId("line-head")).toHaveText("main");
    await expect(rows.nth(1)).toContainText("HEAD");
    const width = await page.locator(".timeline-wrap > .graph").getAttribute("width");
    expect(Number(width)).toBeGreaterThan(24);
    await shot(page, "12-lanes");
  });

  await test.step("continue from it in a new Session, with a link back", async () => {
    await page.getByTestId("saved-offer").getByRole("button", { name: "Continue from it" }).click();
    await expect(page).not.toHaveURL(originUrl);
    await expect(page.getByTestId("mount-status")).toContainText(
      `Based on Checkpoint ${savedShort}`,
    );
    await expect(page.getByTestId("session-origin")).toContainText("Forked from");
    await expect(page.getByTestId("session-origin")).toContainText("after Turn #2");
    await expect(page.getByTestId("session-base").first()).toContainText(savedShort);
    await sendMessage(page, "What do we know so far?", 2);
    // The base is structural: no mount is sent, and the app does not turn the base into one.
    await expect(page.getByTestId("mount-status")).toContainText(
      `Based on Checkpoint ${savedShort}`,
    );
    await expect(turn(page, 2)).toContainText(`Mounted Checkpoint: ${savedShort}`);
    await expect(turn(page, 2)).toContainText("Train instead");
    await shot(page, "13-forked-session");
    const forkUrl = page.url();
    await page.getByTestId("session-origin").getByRole("link").click();
    await expect(page).toHaveURL(originUrl.split("?")[0] ?? originUrl);
    // Linked both ways: the origin names the Session it was continued in.
    await expect(page.getByTestId("session-continued")).toContainText("Continued in");
    await page.goto(forkUrl);
    await expect(turn(page, 2)).toBeVisible();
    await expect(page.getByTestId("mount-status")).toContainText(
      `Based on Checkpoint ${savedShort}`,
    );
    const sent = (await (
      await request.get(`/v4/sessions/${forkUrl.split("/sessions/")[1]?.split("?")[0]}/turns`)
    ).json()) as { items: { checkpoint_id: string | null }[] };
    expect(sent.items[0]?.checkpoint_id).toBe(saved?.id);
  });

  await test.step("make the new line the default: the Space's HEAD follows", async () => {
    const lines = page.getByTestId("lines-panel");
    await lines.locator("summary").click();
    await lines.getByRole("button", { name: "Make train/sintra the default line" }).click();
    await expect(page.getByTestId("space-head")).toContainText("Train instead");
    await expect(
      lines.getByTestId("line-row").first().getByText("default", { exact: true }),
    ).toBeVisible();
    await expect(lines.getByTestId("line-row").first()).toContainText("train/sintra");
  });

  await test.step("an agent's `smriti head` sees it", () => {
    const out = execFileSync(smriti, ["head", space.id, "--json"], {
      env: { ...process.env, SMRITI_URL: baseURL ?? "" },
      encoding: "utf8",
    });
    const agentHead = JSON.parse(out) as Checkpoint;
    expect(agentHead.id).toBe(saved?.id);
    expect(agentHead.decisions).toContain("Train to Sintra");
    return Promise.resolve();
  });

  await test.step("rename and delete a line from the app", async () => {
    const lines = page.getByTestId("lines-panel");
    await lines.getByRole("button", { name: "Rename line main" }).click();
    await lines.getByRole("textbox", { name: "New name for main" }).fill("car");
    await lines.getByRole("button", { name: "Rename", exact: true }).click();
    await expect(lines.getByTestId("line-row").nth(1)).toContainText("car");
    await lines.getByRole("button", { name: "Delete line car" }).click();
    await page
      .getByRole("dialog", { name: "Delete this line?" })
      .getByRole("button", {
        name: "Delete line",
      })
      .click();
    await expect(lines.getByTestId("line-row")).toHaveCount(1);
    const list = (await (await request.get(`/v4/repos/${space.id}/branches`)).json()) as {
      items: { name: string }[];
    };
    expect(list.items.map((l) => l.name)).toEqual(["train/sintra"]);
    // Its Checkpoints stay.
    await expect(
      page.getByRole("list", { name: "Checkpoint history" }).getByRole("listitem"),
    ).toHaveCount(3);
  });

  console.assertClean();
});
