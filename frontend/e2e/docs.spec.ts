import { expect, test } from "@playwright/test";

/**
 * The API docs (/schema) render with every other host unreachable: Swagger UI's files are the
 * backend's own (backend/src/smriti/server/docs_ui.py), never a CDN's.
 */
test("the API docs render offline", async ({ page, baseURL }) => {
  const own = new URL(baseURL ?? "").host;
  const elsewhere: string[] = [];
  await page.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.host === own) return route.continue();
    elsewhere.push(url.href);
    return route.abort();
  });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));

  await page.goto("/schema");
  await expect(page.getByRole("heading", { name: /Smriti API/ })).toBeVisible();
  await expect(page.getByText("Create a Space", { exact: true })).toBeVisible();
  expect(await page.locator(".opblock").count()).toBeGreaterThan(20);
  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});
