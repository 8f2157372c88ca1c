import { type APIRequestContext, expect, test } from "@playwright/test";
import { guardConsole } from "./helpers";

/**
 * Rival choices a clean merge keeps (issue 44 item 2), against the real backend: both lines
 * decided where to stay ("Stay in Alfama" became "Stay in Baixa" on main and "Stay in Graca" on
 * budget). The item rules keep both and there is no conflict, so the merge card must say so
 * before anyone saves.
 */
async function post<T>(request: APIRequestContext, path: string, data: unknown): Promise<T> {
  const response = await request.post(path, { data });
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as T;
}

test.use({ viewport: { width: 1366, height: 860 } });

test("a clean merge that keeps two rival decisions warns before saving", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const space = await post<{ id: string }>(request, "/v4/repos", {
    name: `Rivals ${Date.now()}`,
  });
  const commit = (data: Record<string, unknown>) =>
    post<{ id: string }>(request, "/v4/chat/commit", { repo_id: space.id, ...data });
  const base = await commit({ message: "Plan the trip", decisions: ["Stay in Alfama"] });
  await post(request, `/v4/repos/${space.id}/branches`, { name: "budget", from_ref: base.id });
  await commit({ message: "Central", decisions: ["Stay in Baixa"] });
  await commit({ message: "Cheaper", branch: "budget", decisions: ["Stay in Graca"] });

  await page.goto(`/spaces/${space.id}`);
  const lines = page.getByTestId("lines-panel");
  await lines.locator("summary").click();
  await lines.getByRole("button", { name: "Merge line budget into main" }).click();
  const dialog = page.getByRole("dialog", { name: "Merge lines" });
  await expect(dialog.getByTestId("merge-status")).toContainText(
    "No conflicts: every change on either line merges cleanly, but the lines made rival choices (below).",
  );
  const warning = dialog.getByRole("alert", { name: "Rival choices" });
  await expect(warning).toContainText(
    "1 pair of rival choices: main and budget decided differently.",
  );
  await expect(warning.getByRole("listitem")).toHaveText(
    "“Stay in Baixa” and “Stay in Graca” (two values for one choice)",
  );
  // Seen before saving: Save is there, and nothing was saved yet.
  await expect(dialog.getByRole("button", { name: "Save merge into main" })).toBeVisible();
  const head = (await (await request.get(`/v4/repos/${space.id}/head`)).json()) as {
    message: string;
  };
  expect(head.message).toBe("Central");
  console.assertClean();
});
