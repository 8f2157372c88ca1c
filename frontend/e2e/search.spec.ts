import { type APIRequestContext, expect, test } from "@playwright/test";
import { guardConsole, shot } from "./helpers";

/** Letters only, so the English stemmer reads it as one word. */
function uniqueWord(prefix: string): string {
  return `${prefix}${Date.now()
    .toString(36)
    .replace(/[0-9]/g, (d) => "ghijklmnop"[Number(d)] ?? "")}`;
}

async function post<T = { id: string }>(request: APIRequestContext, path: string, data: unknown) {
  const response = await request.post(path, { data });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as T;
}

/**
 * Search from the top bar: `/` on the Spaces page finds a Checkpoint in any Space and opens it;
 * Ctrl+K in a Space finds a Turn of that Space only and opens its Session scrolled to it.
 */
test("search finds a Checkpoint from the Spaces page and a Turn inside a Space", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const word = uniqueWord("quokka");
  const space = await post(request, "/v4/repos", { name: `Search ${word}` });
  const other = await post(request, "/v4/repos", { name: `Search other ${word}` });
  const saved = await post<{ id: string; commit_hash: string }>(request, "/v4/chat/commit", {
    repo_id: space.id,
    message: "Zoo plan",
    decisions: [`Visit the ${word} enclosure first`],
  });
  const session = await post(request, `/v4/repos/${space.id}/sessions`, { title: "Zoo chat" });
  for (let i = 1; i <= 12; i += 1) {
    const content = i === 2 ? `Where does the ${word} sleep?` : `Filler message ${i}`;
    await post(request, "/v4/chat/send", { session_id: session.id, content });
  }
  await post(request, "/v4/chat/commit", { repo_id: other.id, message: `A ${word} elsewhere` });

  await test.step("`/` on the Spaces page searches every Space and opens the Checkpoint", async () => {
    await page.goto("/");
    await page.keyboard.press("/");
    const box = page.getByRole("searchbox", { name: "Search all Spaces" });
    await expect(box).toBeFocused();
    await box.fill(word);
    const results = page.getByRole("region", { name: "Search results" });
    await expect(results.getByRole("status")).toHaveText(/^[45] matches$/);
    // Named by its short hash, as the log names it.
    const hit = results.getByRole("link", {
      name: new RegExp(`Checkpoint ${saved.commit_hash.slice(0, 7)} · Decision 1`),
    });
    await expect(hit.locator("mark")).toHaveText(word);
    await shot(page, "search-all-spaces");
    await hit.click();
    await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}\\?checkpoint=${saved.id}$`));
    await expect(page.locator(".checkpoint-detail")).toContainText("Zoo plan");
  });

  await test.step("Ctrl+K in a Space searches it alone and opens the Turn", async () => {
    await page.keyboard.press("Control+k");
    const box = page.getByRole("searchbox", { name: "Search this Space" });
    await expect(box).toBeFocused();
    await box.fill(`${word} sleep`);
    const results = page.getByRole("region", { name: "Search results" });
    // A Turn names its Session.
    const hit = results.getByRole("link", { name: /^Turn 3 · “Zoo chat”/ });
    await expect(results.getByRole("link", { name: /^Turn/ })).toHaveCount(2);
    await expect(results).not.toContainText("elsewhere");
    await hit.click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${session.id}\\?turn=3$`));
    const found = page.locator('[data-testid="turn"][data-seq="3"]');
    await expect(found).toBeInViewport();
    await expect(found).toHaveClass(/found/);
  });

  await test.step("a search with nothing to look for says why", async () => {
    const box = page.getByRole("searchbox", { name: "Search this Space" });
    await box.fill("the");
    await expect(page.getByRole("region", { name: "Search results" })).toContainText(
      "no words to search for",
    );
  });
  // The one refused search is the browser's own "400 (Bad Request)" line; nothing else.
  const unexpected = console.problems.filter((p) => !p.includes("status of 400"));
  expect(unexpected, "the browser console shows errors").toEqual([]);
});

/**
 * An item carried forward across four Checkpoints is one result, its newest Checkpoint, with
 * "and 3 earlier"; the keyboard alone reaches an earlier one and opens it.
 */
test("an item carried forward is one result, and the keyboard moves through the results", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const word = uniqueWord("zeppelin");
  const space = await post(request, "/v4/repos", { name: `Carried ${word}` });
  const saved: { id: string; commit_hash: string }[] = [];
  for (let n = 0; n < 4; n += 1) {
    saved.push(
      await post(request, "/v4/chat/commit", {
        repo_id: space.id,
        message: `Step ${n + 1}`,
        decisions: [
          `Take the ${word} to Oslo`,
          ...Array.from({ length: n }, (_, i) => `Also ${i}`),
        ],
      }),
    );
  }
  const [first, second, third, newest] = saved.map((c) => c.commit_hash.slice(0, 7));

  await page.goto("/");
  await page.keyboard.press("/");
  await page.keyboard.type(word);
  const results = page.getByRole("region", { name: "Search results" });
  await expect(results.getByRole("status")).toHaveText("4 matches");
  const hits = results.getByRole("link", { name: /Checkpoint/ });
  await expect(hits).toHaveCount(1);
  await expect(hits).toContainText(`Checkpoint ${newest} · Decision 1`);
  const more = results.getByRole("button", { name: "and 3 earlier" });
  await expect(more).toHaveAttribute("aria-expanded", "false");

  await page.keyboard.press("ArrowDown");
  await expect(hits).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(more).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(more).toHaveAttribute("aria-expanded", "true");
  const earlier = results.getByRole("list", { name: "Earlier Checkpoints" }).getByRole("link");
  await expect(earlier).toHaveText(
    [third, second, first].map((h) => `Checkpoint ${h} · Decision 1`),
  );
  await shot(page, "search-carried-forward");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(earlier.nth(1)).toBeFocused();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press("ArrowUp");
  await expect(page.getByRole("searchbox", { name: "Search all Spaces" })).toBeFocused();
  // Down past the hit and the toggle to the second earlier Checkpoint, then Enter opens it.
  for (let i = 0; i < 4; i += 1) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}\\?checkpoint=${saved[1]?.id}$`));
  await expect(page.locator(".checkpoint-detail")).toContainText("Step 2");
  expect(console.problems, "the browser console shows errors").toEqual([]);
});
