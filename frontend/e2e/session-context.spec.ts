import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { guardConsole, sendMessage, turn } from "./helpers";

/**
 * What a Session's next message receives is server state (SYSTEM.md §12, issue 43): the same in
 * two browsers, after a reload, on another device. Mounting starts a Session based on the
 * Checkpoint, linked both ways; a mount an earlier version kept in one browser's localStorage is
 * offered once; Sessions are found by title and deleted after a confirm.
 */

interface Checkpoint {
  id: string;
  commit_hash: string;
  message: string;
}

async function post<T>(request: APIRequestContext, url: string, data: unknown): Promise<T> {
  const response = await request.post(url, { data });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as T;
}

/** A Space with two Checkpoints and a Session of four Turns (two exchanges). */
async function spaceWithTalk(request: APIRequestContext, name: string) {
  const space = await post<{ id: string }>(request, "/v4/repos", { name: `${name} ${Date.now()}` });
  const plan = await post<Checkpoint>(request, "/v4/chat/commit", {
    repo_id: space.id,
    message: "Plan",
    decisions: ["Fly to Lisbon on Friday"],
  });
  const later = await post<Checkpoint>(request, "/v4/chat/commit", {
    repo_id: space.id,
    message: "Later",
    decisions: ["Fly to Lisbon on Friday", "Rent a car"],
  });
  const session = await post<{ id: string }>(request, `/v4/repos/${space.id}/sessions`, {
    title: "Trip talk",
  });
  for (const content of ["Where were we?", "Something secret we said before the mount."]) {
    await post(request, "/v4/chat/send", { session_id: session.id, content });
  }
  return { spaceId: space.id, plan, later, sessionId: session.id };
}

async function openIn(browser: Browser, url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const console = guardConsole(page);
  await page.goto(url);
  return { context, page, console };
}

const sessionIdOf = (page: Page) => page.url().split("/sessions/")[1]?.split("?")[0] ?? "";

test("one Session open in two browsers: a mount in one is the context in the other", async ({
  browser,
  request,
}) => {
  const { spaceId, plan, sessionId } = await spaceWithTalk(request, "Two browsers");
  const planShort = plan.commit_hash.slice(0, 7);
  const url = `/spaces/${spaceId}/sessions/${sessionId}?panel=context`;
  const a = await openIn(browser, url);
  const b = await openIn(browser, url);
  for (const { page } of [a, b]) {
    await expect(turn(page, 4)).toBeVisible();
    await expect(page.getByTestId("mount-status")).toContainText("Full history");
    await expect(page.getByTestId("context-scope")).toContainText("every Turn of this Session");
  }

  let mountedUrl = "";
  await test.step("A mounts the Plan: a new Session based on it", async () => {
    await a.page.locator(".mount-control summary").click();
    await a.page.getByRole("menuitem", { name: /Plan/ }).click();
    await expect(a.page).not.toHaveURL(new RegExp(sessionId));
    await expect(a.page.getByTestId("mount-status")).toContainText(
      `Based on Checkpoint ${planShort}`,
    );
    await expect(a.page.getByTestId("context-scope")).toContainText(
      `Checkpoint ${planShort} “Plan” (this Session's base) plus every Turn of this Session.`,
    );
    mountedUrl = a.page.url();
  });
  const mountedId = sessionIdOf(a.page);

  await test.step("B reloads: the Session says where it was continued, and B follows", async () => {
    await b.page.reload();
    const continued = b.page.getByTestId("session-continued");
    await expect(continued).toContainText("Continued in");
    await continued.getByRole("link").click();
    await expect(b.page).toHaveURL(new RegExp(mountedId));
    // The same context as A's, from the server: the base, none of the old Turns.
    await expect(b.page.getByTestId("mount-status")).toContainText(
      `Based on Checkpoint ${planShort}`,
    );
    await b.page.getByRole("tab", { name: "Context" }).click();
    await expect(b.page.getByTestId("context-scope")).toContainText(
      `Checkpoint ${planShort} “Plan” (this Session's base) plus every Turn of this Session.`,
    );
    await expect(b.page.getByTestId("context-panel").getByTestId("context-message")).toHaveCount(0);
    await expect(b.page.getByTestId("session-origin")).toContainText("after Turn #4");
  });

  await test.step("B's next message goes with the mounted Checkpoint", async () => {
    await sendMessage(b.page, "What do we know so far?", 2);
    await expect(turn(b.page, 2)).toContainText(`Mounted Checkpoint: ${planShort}`);
    await expect(turn(b.page, 2)).toContainText("History: 0 Turns before your message");
    const stored = (await (await request.get(`/v4/sessions/${mountedId}/turns`)).json()) as {
      items: { sequence_number: number; checkpoint_id: string | null; content: string }[];
    };
    expect(stored.items[0]).toMatchObject({ sequence_number: 1, checkpoint_id: plan.id });
    expect(stored.items[1]?.content).not.toContain("secret");
  });

  await test.step("A, reloaded, shows the same Session and the same context", async () => {
    await a.page.goto(mountedUrl);
    await expect(turn(a.page, 2)).toContainText(`Mounted Checkpoint: ${planShort}`);
    const seqs = async (page: Page) =>
      page
        .getByTestId("context-panel")
        .getByTestId("context-message")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-seq")));
    await expect(a.page.getByTestId("context-panel").getByTestId("context-message")).toHaveCount(2);
    await b.page.getByRole("button", { name: "Refresh" }).click();
    await expect(b.page.getByTestId("context-panel").getByTestId("context-message")).toHaveCount(2);
    expect(await seqs(a.page)).toEqual(await seqs(b.page));
    expect(await a.page.getByTestId("context-total").textContent()).toBe(
      await b.page.getByTestId("context-total").textContent(),
    );
  });

  a.console.assertClean();
  b.console.assertClean();
  await a.context.close();
  await b.context.close();
});

test("a mount kept in this browser is offered once; Sessions are found by title and deleted", async ({
  browser,
  request,
}) => {
  const { spaceId, later, sessionId } = await spaceWithTalk(request, "Old mounts");
  const laterShort = later.commit_hash.slice(0, 7);
  const context = await browser.newContext();
  // What an earlier version of the app kept, and nowhere else.
  await context.addInitScript(
    ([key, value]) => {
      if (!sessionStorage.getItem("seeded")) {
        localStorage.setItem(key, value);
        sessionStorage.setItem("seeded", "1");
      }
    },
    [
      `smriti.mount.${sessionId}`,
      JSON.stringify({ mount: { checkpointId: later.id, historyBaseSeq: 4 } }),
    ] as const,
  );
  const page = await context.newPage();
  const console = guardConsole(page);
  await page.goto(`/spaces/${spaceId}/sessions/${sessionId}`);

  await test.step("the kept mount is offered, and starts the Session based on it", async () => {
    const offer = page.getByTestId("legacy-mount");
    await expect(offer).toContainText(`This browser had ${laterShort} “Later” mounted`);
    await expect(offer).toContainText("after Turn #4");
    await offer.getByRole("button", { name: "Continue from it in a new Session" }).click();
    await expect(page).not.toHaveURL(new RegExp(sessionId));
    await expect(page.getByTestId("mount-status")).toContainText(
      `Based on Checkpoint ${laterShort}`,
    );
    expect(
      await page.evaluate((key) => localStorage.getItem(key), `smriti.mount.${sessionId}`),
    ).toBeNull();
    // Asked once: the old Session opens without the offer now.
    await page.goto(`/spaces/${spaceId}/sessions/${sessionId}`);
    await expect(turn(page, 4)).toBeVisible();
    await expect(page.getByTestId("legacy-mount")).toHaveCount(0);
  });

  await test.step("the Session list finds a Session by a part of its title", async () => {
    const sidebar = page.getByRole("navigation", { name: "Sessions" });
    await expect(sidebar.locator(".session-title")).toHaveCount(2);
    await sidebar
      .getByRole("searchbox", { name: "Find a Session by title" })
      .fill("TRIP TALK (FORK");
    await expect(sidebar.locator(".session-title")).toHaveCount(1);
    await expect(sidebar.locator(".session-title")).toContainText("(fork from");
    await sidebar.getByRole("searchbox", { name: "Find a Session by title" }).fill("");
    await expect(sidebar.locator(".session-title")).toHaveCount(2);
    await expect(sidebar.getByTestId("session-continued-count")).toContainText(
      "continued in 1 Session",
    );
  });

  await test.step("deleting a Session asks first; its fork goes on", async () => {
    await page.getByRole("button", { name: "Delete…" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this Session?" });
    await expect(confirm).toContainText("Trip talk and its 4 Turns go for good");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(turn(page, 4)).toBeVisible();
    await page.getByRole("button", { name: "Delete…" }).click();
    await confirm.getByRole("button", { name: "Delete Session" }).click();
    await expect(page).toHaveURL(new RegExp(`/spaces/${spaceId}$`));
    const sidebar = page.getByRole("navigation", { name: "Sessions" });
    await expect(sidebar.locator(".session-title")).toHaveCount(1);
    expect((await request.get(`/v4/sessions/${sessionId}`)).status()).toBe(404);
    await sidebar.locator(".session-link").first().click();
    await expect(page.getByTestId("session-origin")).toContainText(
      "Forked from a Session since deleted",
    );
    await expect(page.getByTestId("mount-status")).toContainText(
      `Based on Checkpoint ${laterShort}`,
    );
  });

  console.assertClean();
  await context.close();
});
