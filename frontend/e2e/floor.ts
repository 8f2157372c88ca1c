import type { Page } from "@playwright/test";

/**
 * The floor the 5,000-Turn budgets are held against, measured in the same run and browser: a bare
 * page, no framework and no Markdown, that loads the same Session the way the app does (the
 * Session and the first page at once, the other pages as soon as the count is known) and draws
 * the Turns on screen as plain text in a scroller that keeps only those rows in the DOM. What it
 * costs is what this machine, at this moment, needs for the data and the DOM alone; a budget as a
 * multiple of it measures the app, not how busy the machine is.
 */
const FLOOR_HTML = `<!doctype html>
<meta charset="utf-8" />
<title>floor</title>
<style>
  body { margin: 0; font: 15px/1.5 system-ui, sans-serif; }
  #scroller { height: 100vh; overflow: auto; }
  #canvas { position: relative; }
  .row { position: absolute; left: 0; right: 0; padding: 8px 16px; box-sizing: border-box;
         white-space: pre-wrap; overflow: hidden; border-bottom: 1px solid #ddd; }
</style>
<div id="scroller" data-testid="floor-list"><div id="canvas"></div></div>
<script>
  const ROW = 120;
  const OVERSCAN = 2;
  const scroller = document.getElementById("scroller");
  const canvas = document.getElementById("canvas");
  let turns = [];
  function draw() {
    const first = Math.max(0, Math.floor(scroller.scrollTop / ROW) - OVERSCAN);
    const last = Math.min(turns.length, Math.ceil((scroller.scrollTop + scroller.clientHeight) / ROW) + OVERSCAN);
    const rows = [];
    for (let i = first; i < last; i += 1) {
      const row = document.createElement("div");
      row.className = "row";
      row.style.top = i * ROW + "px";
      row.style.height = ROW + "px";
      row.dataset.seq = String(turns[i].sequence_number);
      row.textContent = turns[i].role + ": " + turns[i].content;
      rows.push(row);
    }
    canvas.replaceChildren(...rows);
  }
  scroller.addEventListener("scroll", draw);
  async function load(sessionId) {
    const page = (after) =>
      fetch("/v4/sessions/" + sessionId + "/turns?after_seq=" + after + "&limit=1000").then((r) => r.json());
    const first = page(0);
    const session = await (await fetch("/v4/sessions/" + sessionId)).json();
    const rest = [];
    for (let after = 1000; after < session.turn_count; after += 1000) rest.push(page(after));
    const pages = await Promise.all([first, ...rest]);
    turns = pages.flatMap((p) => p.items);
    canvas.style.height = turns.length * ROW + "px";
    scroller.scrollTop = scroller.scrollHeight;
    draw();
    void scroller.offsetHeight;
    requestAnimationFrame(() => performance.mark("smriti:floor-rendered"));
  }
  load(new URLSearchParams(location.search).get("session"));
</script>`;

export const FLOOR_PATH = "/__budget-floor";

/** Serves the floor page on the app's own origin (so it reaches the API as the app does). */
export async function serveFloor(page: Page): Promise<void> {
  await page.route(`**${FLOOR_PATH}*`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: FLOOR_HTML }),
  );
}

/**
 * A clock of the page's main-thread busy time (ms), from Chromium's own counters: every task,
 * whatever ran in it (script, style, layout, paint). Unlike frame intervals, which come in whole
 * vsyncs (17, 33, 50 ms), it says how much work a frame took.
 */
export async function mainThreadClock(page: Page): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  return async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    return (metrics.find((m) => m.name === "TaskDuration")?.value ?? 0) * 1000;
  };
}
