import { type APIRequestContext, expect, test } from "@playwright/test";
import { guardConsole, shot } from "./helpers";

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
  // Letters only, so the English stemmer reads it as one word.
  const word = `quokka${Date.now()
    .toString(36)
    .replace(/[0-9]/g, (d) => "ghijklmnop"[Number(d)] ?? "")}`;
  const space = await post(request, "/v4/repos", { name: `Search ${word}` });
  const other = await post(request, "/v4/repos", { name: `Search other ${word}` });
  const saved = await post(request, "/v4/chat/commit", {
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
    const hit = results.getByRole("link", { name: /Checkpoint · Decision 1/ });
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
    const hit = results.getByRole("link", { name: /^Turn 3/ });
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
