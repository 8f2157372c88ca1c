import { expect, test } from "@playwright/test";
import { guardConsole } from "./helpers";

/** At a phone's width (issue 44 item 14): the Space's name has the room, and the context is a
 * view of its own, not a tab nested under "Checkpoints". */
test.use({ viewport: { width: 390, height: 844 } });

test("at 390 px the Space's name is readable and Context is one of the views", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const name = `Lisbon trip planning ${Date.now()}`;
  const space = await (await request.post("/v4/repos", { data: { name } })).json();
  const session = await (
    await request.post(`/v4/repos/${space.id}/sessions`, { data: { title: "Trip" } })
  ).json();
  await page.goto(`/spaces/${space.id}/sessions/${session.id}`);

  // The brand mark is the way home; the name keeps at least "Lisbon trip" in view.
  const current = page.getByRole("navigation", { name: "Breadcrumb" }).locator(".crumb-current");
  await expect(current).toHaveText(name);
  expect(await current.evaluate((el) => el.clientWidth)).toBeGreaterThanOrEqual(110);
  await expect(page.getByRole("link", { name: "Smriti — all Spaces" })).toBeVisible();

  const views = page.getByRole("navigation", { name: "Views" });
  await views.getByRole("button", { name: "Context" }).click();
  await expect(views.getByRole("button", { name: "Context" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(page.getByText("Next message goes to")).toBeVisible();
  // No nested tab row above the context.
  await expect(page.getByRole("tablist")).toBeHidden();

  await views.getByRole("button", { name: "Checkpoints" }).click();
  await expect(page.getByRole("tab", { name: "Compare" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Context" })).toBeHidden();
  await expect(page.getByText("No Checkpoints yet", { exact: true })).toBeVisible();
  console.assertClean();
});
