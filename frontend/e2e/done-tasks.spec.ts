import { type APIRequestContext, expect, type Locator, test } from "@playwright/test";
import { guardConsole } from "./helpers";

/**
 * A done task is a status, not a removal (issue 44 item 16): in the merge card and in a
 * Checkpoint's detail it carries a "done" badge and is not struck through, while an item a side
 * removed says "removed" in words. Checked in the browser, where the app's styles apply.
 */
async function post<T>(request: APIRequestContext, path: string, data: unknown): Promise<T> {
  const response = await request.post(path, { data });
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as T;
}

const decoration = (locator: Locator) =>
  locator.evaluate((el) => getComputedStyle(el).textDecorationLine);

test.use({ viewport: { width: 1366, height: 860 } });

test("a done task reads as done, not as removed, in the merge card and the detail", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const space = await post<{ id: string }>(request, "/v4/repos", { name: `Done ${Date.now()}` });
  const commit = (data: Record<string, unknown>) =>
    post<{ id: string; commit_hash: string }>(request, "/v4/chat/commit", {
      repo_id: space.id,
      ...data,
    });
  const base = await commit({ message: "Plan the trip", tasks: [{ text: "Book hotel" }] });
  await post(request, `/v4/repos/${space.id}/branches`, { name: "budget", from_ref: base.id });
  // main marks the task done; budget removes it: one conflict on the task.
  const done = await commit({ message: "Booked", tasks: [{ text: "Book hotel", done: true }] });
  await commit({ message: "No hotel", branch: "budget", tasks: [] });

  await page.goto(`/spaces/${space.id}`);
  const lines = page.getByTestId("lines-panel");
  await lines.locator("summary").click();
  await lines.getByRole("button", { name: "Merge line budget into main" }).click();
  const dialog = page.getByRole("dialog", { name: "Merge lines" });
  const conflict = dialog.getByTestId("merge-conflict");
  await expect(conflict).toHaveCount(1);

  const ours = conflict.getByRole("region", { name: "Ours (main)" }).getByTestId("task");
  await expect(ours).toContainText("Book hotel");
  expect(await decoration(ours)).toBe("none");
  await expect(ours.locator(".task-status")).toHaveText("✓ done");
  // The side that removed the task says so in words.
  await expect(conflict.getByRole("region", { name: "Theirs (budget)" })).toHaveText(
    /Theirs\s*budget\s*removed/,
  );
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  await page
    .getByRole("list", { name: "Checkpoint history" })
    .getByRole("listitem")
    .filter({ hasText: "Booked" })
    .click();
  const detail = page.getByRole("article", { name: `Checkpoint ${done.commit_hash.slice(0, 7)}` });
  const task = detail.getByTestId("task");
  await expect(task).toContainText("Book hotel");
  expect(await decoration(task)).toBe("none");
  await expect(task.locator(".task-status")).toHaveText("✓ done");
  expect(console.problems).toEqual([]);
});
