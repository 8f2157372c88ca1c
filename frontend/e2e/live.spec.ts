import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { guardConsole, shot } from "./helpers";

/**
 * The web app live (SYSTEM.md §14), against the real backend: what an agent changes through the
 * API shows in an open timeline within seconds, with a notice naming the agent; the person's own
 * changes raise none; the activity view lists both, newest first, and narrows by actor; a dropped
 * stream reconnects from the last id it saw and catches up what happened meanwhile.
 */

interface Made {
  space: string;
  agent: string;
  auth: { Authorization: string };
}

async function spaceWithAgent(request: APIRequestContext, label: string): Promise<Made> {
  const stamp = Date.now();
  const space = (await (
    await request.post("/v4/repos", { data: { name: `${label} ${stamp}` } })
  ).json()) as { id: string };
  const agent = `planner-${stamp}`;
  const key = (await (
    await request.post("/v5/agents", { data: { name: agent, spaces: [space.id], write: true } })
  ).json()) as { token: string };
  return { space: space.id, agent, auth: { Authorization: `Bearer ${key.token}` } };
}

async function commit(
  request: APIRequestContext,
  space: string,
  message: string,
  headers: Record<string, string> = {},
) {
  const saved = await request.post("/v4/chat/commit", {
    headers,
    data: { repo_id: space, message, decisions: [message] },
  });
  expect(saved.status(), await saved.text()).toBe(201);
}

const timelineRow = (page: Page, message: string) =>
  page.getByRole("list", { name: "Checkpoint history" }).getByText(message);

/** Opens a Space's timeline; with `live`, once the server answered the live stream (it answers
 * once the stream is registered, so a change made from then on reaches it). */
async function openTimeline(page: Page, space: string, live = true) {
  const isStream = (url: string) => url.endsWith("/v5/events");
  const streaming = live
    ? page.waitForResponse((r) => isStream(r.url()))
    : page.waitForRequest((r) => isStream(r.url()));
  await page.goto(`/spaces/${space}`);
  await streaming;
}

test("an agent's commit shows in the open timeline with a notice; the person's raises none; the activity view lists both", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const { space, agent, auth } = await spaceWithAgent(request, "Live");
  await commit(request, space, "Start");
  await openTimeline(page, space);
  await expect(timelineRow(page, "Start")).toBeVisible();

  await test.step("an agent commits through the API: timeline and notice, no reload", async () => {
    await commit(request, space, "Pick Baixa", auth);
    await expect(timelineRow(page, "Pick Baixa")).toBeVisible({ timeout: 5_000 });
    const notice = page.getByRole("status").filter({ hasText: "Pick Baixa" });
    await expect(notice).toContainText(`agent ${agent} saved 'Pick Baixa' on line main`);
    await shot(page, "live-notice");
  });

  await test.step("the person's own commit shows too, without a notice", async () => {
    await commit(request, space, "Person's pick");
    await expect(timelineRow(page, "Person's pick")).toBeVisible({ timeout: 5_000 });
    await expect(page.getByTestId("live-notice")).toHaveCount(1);
    await expect(page.getByTestId("live-notice")).not.toContainText("Person's pick");
    await page
      .getByRole("button", { name: `Dismiss: agent ${agent} saved 'Pick Baixa' on line main` })
      .click();
    await expect(page.getByTestId("live-notice")).toHaveCount(0);
  });

  await test.step("the activity view: newest first, narrowed by actor, new events on top", async () => {
    await page.getByRole("link", { name: "Activity" }).click();
    await expect(page).toHaveURL(new RegExp(`/spaces/${space}/activity$`));
    const rows = page.getByTestId("activity-row");
    await expect(rows).toHaveCount(4); // space.created, then three Checkpoints
    await expect(rows.nth(0)).toContainText("the person saved 'Person's pick' on line main");
    await expect(rows.nth(1)).toContainText(`agent ${agent} saved 'Pick Baixa' on line main`);
    await expect(rows.nth(3)).toContainText("the person created Space");
    await page.getByRole("combobox", { name: "Who" }).selectOption({ label: `agent ${agent}` });
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0)).toContainText("Pick Baixa");
    await page.getByRole("combobox", { name: "Who" }).selectOption({ label: "Anyone" });
    await page.getByRole("combobox", { name: "What" }).selectOption("space.created");
    await expect(rows).toHaveCount(1);
    await page.getByRole("combobox", { name: "What" }).selectOption({ label: "Any change" });
    await commit(request, space, "Agent again", auth);
    await expect(rows.nth(0)).toContainText("Agent again", { timeout: 5_000 });
    await shot(page, "activity");
    await rows.nth(0).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/spaces/${space}\\?checkpoint=`));
  });
  console.assertClean();
});

test("a dropped stream reconnects from the last id it saw and catches up what happened meanwhile", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const { space, agent, auth } = await spaceWithAgent(request, "Dropped");
  await commit(request, space, "Before the drop");
  const newest = (await (
    await request.get("/v5/events", { params: { order: "newest", limit: 1 } })
  ).json()) as { next_after: number };
  const sent: (string | null)[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/v5/events")) sent.push(r.headers()["last-event-id"] ?? null);
  });
  // The first connection is held until the timeline is shown, then answers only its opening id
  // and ends, as a dropped connection does; the next ones reach the server.
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    "**/v5/events",
    async (route) => {
      await released;
      await route.fulfill({
        status: 200,
        headers: { "content-type": "text/event-stream" },
        body: `id: ${newest.next_after}\n\n`,
      });
    },
    { times: 1 },
  );
  await openTimeline(page, space, false);
  await expect(timelineRow(page, "Before the drop")).toBeVisible();
  await commit(request, space, "Made while away", auth);
  release();
  await expect(timelineRow(page, "Made while away")).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole("status").filter({ hasText: "Made while away" })).toContainText(
    `agent ${agent} saved 'Made while away'`,
  );
  expect(sent.slice(0, 2)).toEqual([null, String(newest.next_after)]);
  console.assertClean();
});
