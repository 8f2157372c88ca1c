import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { FLOOR_PATH, mainThreadClock, serveFloor } from "./floor";
import { guardConsole, sendMessage, shot, turn } from "./helpers";

/**
 * Budgets, measured in headless Chromium on this machine against the real backend:
 * - first render of a Session with 5,000 Turns (navigation start → the list rendered) and
 * - main-thread work per frame while scrolling those Turns (the DOM holds only the rows on screen)
 *   are each held as a multiple of the floor (e2e/floor.ts), a bare page that loads and draws the
 *   same Turns, measured in the same run: how fast this shared 2-core machine is at the moment
 *   moved the absolute figures by 2× within one day (docs/performance.md). The absolute figures
 *   (≤ 1 s, p95 frame < 50 ms on a quiet machine) are recorded beside the ratios;
 * - no layout jump when a reply arrives.
 * The numbers go to test-results/budgets.json (and are reported in docs/performance.md).
 */
/** The app over the floor, best run of three each (measured 2.8–3.1 and 4.1–4.5 on 2026-12-07). */
const RENDER_RATIO = 4;
const SCROLL_RATIO = 6;
const TURNS = 5000;
const results: Record<string, unknown> = {};

type Run = {
  render_ms: number;
  last_visible_ms: number;
  frames: number;
  p95_ms: number;
  busy_per_frame_ms: number;
};
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Navigation start → the page's own "rendered" mark, and → the test saw the last Turn. */
async function loaded(page: Page, mark: string) {
  const lastVisible = await page.evaluate(() => performance.now());
  const at = await page.evaluate(
    (name) => performance.getEntriesByName(name)[0]?.startTime ?? Number.POSITIVE_INFINITY,
    mark,
  );
  return { render_ms: Math.round(at), last_visible_ms: Math.round(lastVisible) };
}

/**
 * Scrolls up from the end, two screens per frame (far faster than any hand), then to the top the
 * way dragging the scroll bar there does: frame intervals (p95) and main-thread work per frame.
 */
async function scroll(page: Page, testId: string) {
  const busy = await mainThreadClock(page);
  const before = await busy();
  const frames = await page.evaluate(async (id) => {
    const scroller = document.querySelector(`[data-testid="${id}"]`) as HTMLElement;
    scroller.scrollTop = scroller.scrollHeight;
    await new Promise((r) => setTimeout(r, 200));
    const durations: number[] = [];
    let last = performance.now();
    const step = scroller.clientHeight * 2;
    for (let i = 0; i < 150 && scroller.scrollTop > 0; i += 1) {
      scroller.scrollTop = Math.max(0, scroller.scrollTop - step);
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      const now = performance.now();
      durations.push(now - last);
      last = now;
    }
    for (let i = 0; i < 5; i += 1) {
      scroller.scrollTop = 0;
      await new Promise((r) => requestAnimationFrame(() => r(null)));
    }
    return durations;
  }, testId);
  // The 200 ms settle before the first frame is idle time, not counted work.
  const work = (await busy()) - before;
  frames.sort((a, b) => a - b);
  return {
    frames: frames.length,
    p95_ms: Math.round(frames[Math.floor(frames.length * 0.95)] ?? 0),
    busy_per_frame_ms: round2(work / (frames.length + 5)),
  };
}

test.afterEach(() => {
  mkdirSync("test-results", { recursive: true });
  writeFileSync(resolve("test-results", "budgets.json"), `${JSON.stringify(results, null, 2)}\n`);
});

function transcript(pairs: number): string {
  const lines: string[] = [];
  for (let i = 1; i <= pairs; i += 1) {
    lines.push(`User: Question ${i}: what about **option ${i % 7}** for the plan?`);
    lines.push(
      i % 10 === 0
        ? `Assistant: Answer ${i}, with code:\n\`\`\`python\ndef step_${i}(x):\n    return x + ${i}\n\`\`\``
        : `Assistant: Answer ${i}. Option ${i % 7} fits because it keeps the *budget* and the dates.\n- first point\n- second point`,
    );
  }
  return lines.join("\n");
}

test("a Session with 5,000 Turns renders and scrolls within a few times a bare floor's cost", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const space = await (
    await request.post("/v4/repos", { data: { name: `Long Session ${Date.now()}` } })
  ).json();
  const imported = await request.post("/v1/transcripts", {
    data: { transcript: transcript(TURNS / 2), repo_id: space.id, title: "Five thousand Turns" },
  });
  expect(imported.status()).toBe(201);
  const { session_id: sessionId } = await imported.json();
  const session = await (await request.get(`/v4/sessions/${sessionId}`)).json();
  expect(session.turn_count).toBe(TURNS);

  // Warm the HTTP cache for the app's own files, as a returning visitor has. Then, three times in
  // turn, the app and the floor (e2e/floor.ts) each load the Session fresh and scroll it; other
  // work on this 2-core machine only makes a run slower, so the best run of each is its own cost.
  await serveFloor(page);
  await page.goto("/");
  const app: Run[] = [];
  const floor: Run[] = [];
  for (let run = 0; run < 3; run += 1) {
    await page.goto(`/spaces/${space.id}/sessions/${sessionId}`);
    await expect(turn(page, TURNS)).toBeVisible();
    const appRun = await loaded(page, "smriti:turn-list-rendered");
    // Only the rows on screen are in the DOM.
    expect(await page.getByTestId("turn").count()).toBeLessThan(60);
    if (run === 0) await shot(page, "07-long-session");
    app.push({ ...appRun, ...(await scroll(page, "turn-list")) });
    await expect(turn(page, 1)).toBeVisible();

    await page.goto(`${FLOOR_PATH}?session=${sessionId}`);
    await expect(page.locator(`#canvas [data-seq="${TURNS}"]`)).toBeVisible();
    floor.push({
      ...(await loaded(page, "smriti:floor-rendered")),
      ...(await scroll(page, "floor-list")),
    });
  }
  const best = (runs: Run[], key: "render_ms" | "p95_ms" | "busy_per_frame_ms") =>
    Math.min(...runs.map((r) => r[key]));
  const appRender = best(app, "render_ms");
  const floorRender = best(floor, "render_ms");
  const appBusy = best(app, "busy_per_frame_ms");
  const floorBusy = best(floor, "busy_per_frame_ms");
  results.first_render_5000_turns = {
    app_runs: app,
    floor_runs: floor,
    best_ms: appRender,
    floor_best_ms: floorRender,
    ratio: round2(appRender / floorRender),
    budget_ratio: RENDER_RATIO,
    reference_budget_ms: 1000,
  };
  results.scroll_5000_turns = {
    best_p95_ms: best(app, "p95_ms"),
    floor_best_p95_ms: best(floor, "p95_ms"),
    busy_per_frame_ms: appBusy,
    floor_busy_per_frame_ms: floorBusy,
    ratio: round2(appBusy / floorBusy),
    budget_ratio: SCROLL_RATIO,
    reference_budget_p95_ms: 50,
  };
  expect(
    appRender / floorRender,
    "navigation start → the 5,000-Turn list rendered, the app over the floor",
  ).toBeLessThanOrEqual(RENDER_RATIO);
  expect(
    appBusy / floorBusy,
    "main-thread work per frame while scrolling, the app over the floor",
  ).toBeLessThanOrEqual(SCROLL_RATIO);
  console.assertClean();
});

test("no layout jump when a reply arrives", async ({ page }) => {
  const console = guardConsole(page);
  await page.goto("/");
  await page.getByRole("textbox", { name: "Name" }).fill(`Layout ${Date.now()}`);
  await page.getByRole("button", { name: "Create Space" }).click();
  await page.getByRole("button", { name: "+ New Session" }).click();
  for (let i = 1; i <= 3; i += 1)
    await sendMessage(page, `Message ${i}: some text to fill the screen.`, i * 2);

  // The fake OpenAI server answers after 400 ms: long enough to see the placeholder.
  await page.getByRole("combobox", { name: "Provider" }).selectOption("openai");
  await page.evaluate(() => {
    type Rect = { x: number; y: number; width: number; height: number };
    type Source = { node?: Node | null; previousRect: Rect; currentRect: Rect };
    type Shift = { value: number; hadRecentInput: boolean; sources?: Source[] };
    const w = window as unknown as { __shifts: { value: number; sources: string[] }[] };
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Shift[]) {
        if (entry.hadRecentInput) continue;
        const sources = (entry.sources ?? []).map((s) => {
          const node = s.node instanceof Element ? s.node : s.node?.parentElement;
          const where = node
            ? `${node.tagName.toLowerCase()}.${node.className} “${node.textContent?.slice(0, 30)}”`
            : "?";
          const r = (x: Rect) =>
            `${Math.round(x.x)},${Math.round(x.y)} ${Math.round(x.width)}×${Math.round(x.height)}`;
          const area = node?.closest(".chat") ? "chat" : "elsewhere";
          return `${area}: ${where}: ${r(s.previousRect)} → ${r(s.currentRect)}`;
        });
        w.__shifts.push({ value: entry.value, sources });
      }
    }).observe({ type: "layout-shift", buffered: false });
  });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("What changed?");
  await box.press("Enter");
  await expect(page.getByTestId("pending-reply")).toBeVisible();
  await page.waitForTimeout(100);

  const rect = (selector: string) =>
    page.locator(selector).evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top), height: Math.round(r.height) };
    });
  const before = {
    userTurn: await rect("[data-index] .turn.user.pending"),
    header: await rect(".chat-header"),
    composer: await rect(".composer-form"),
  };
  await expect(turn(page, 8)).toBeVisible();
  await page.waitForTimeout(300);
  const after = {
    userTurn: await rect('[data-seq="7"]'),
    header: await rect(".chat-header"),
    composer: await rect(".composer-form"),
  };
  const shifts = await page.evaluate(
    () => (window as unknown as { __shifts: { value: number; sources: string[] }[] }).__shifts,
  );
  const cls = shifts.reduce((a, b) => a + b.value, 0);
  results.layout_jump = { before, after, cumulative_layout_shift: cls, shifts };

  expect(after.header).toEqual(before.header);
  expect(after.composer.top).toBe(before.composer.top);
  expect(
    Math.abs(after.userTurn.top - before.userTurn.top),
    "the message just sent did not move",
  ).toBeLessThanOrEqual(1);
  expect(after.userTurn.height).toBe(before.userTurn.height);
  // Nothing in the chat moves; elsewhere only text updates in place (the Session's Turn count).
  const inChat = shifts
    .flatMap((shift) => shift.sources)
    .filter((source) => source.startsWith("chat:"));
  expect(inChat, "layout shifts in the chat while the reply arrived").toEqual([]);
  expect(cls, "cumulative layout shift while the reply arrived").toBeLessThan(0.001);
  console.assertClean();
});
