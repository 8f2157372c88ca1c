import { mkdirSync } from "node:fs";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { guardConsole } from "./helpers";

/**
 * Merging two lines from the app (issue 23), against the real backend: a line forked from main
 * and both lines changed (the API sets that up, as two agents would) → "Merge budget into main"
 * → what comes in, one conflict → choose → review (a contradiction only the merge makes) → save,
 * refused once because main moved meanwhile, the choice kept → the merge Checkpoint with both
 * parents, in the detail and the lanes. At a laptop's width and a phone's, light and dark.
 */
const viewports = [
  { name: "1366", width: 1366, height: 860 },
  { name: "390", width: 390, height: 844 },
];
const shots = process.env.MERGE_SHOTS_DIR ?? "/work/shots";
mkdirSync(shots, { recursive: true });

interface Checkpoint {
  id: string;
  commit_hash: string;
  message: string;
  summary: string;
  decisions: string[];
  open_questions: string[];
  tasks: { text: string; done: boolean }[];
  parent_commit_id: string | null;
  merge_parent_id: string | null;
}

async function post<T>(request: APIRequestContext, path: string, data: unknown): Promise<T> {
  const response = await request.post(path, { data });
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as T;
}

/** The same screen in the light and the dark theme (the app follows the OS while on "System"). */
async function shoot(page: Page, width: string, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator("html")).toHaveAttribute("data-theme", scheme);
    await page.screenshot({ path: `${shots}/merge-${width}-${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** Nothing in the dialog is wider than the dialog (a phone would scroll sideways). */
async function expectNoSidewaysScroll(page: Page) {
  const body = page.locator("dialog[open] .dialog-body");
  const [scroll, client] = await body.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(scroll, "the merge dialog scrolls sideways").toBeLessThanOrEqual((client ?? 0) + 1);
}

for (const vp of viewports) {
  const mobile = vp.width < 860;

  test.describe(`merging two lines at ${vp.name} px`, () => {
    test.use({ viewport: { width: vp.width, height: vp.height }, colorScheme: "light" });

    test("fork, change both lines, merge with one conflict: choose, review, save (once refused), see both parents", async ({
      page,
      request,
    }) => {
      const console = guardConsole(page);
      const space = await post<{ id: string }>(request, "/v4/repos", {
        name: `Merge ${vp.name} ${Date.now()}`,
      });
      const commit = (data: Record<string, unknown>) =>
        post<Checkpoint>(request, "/v4/chat/commit", { repo_id: space.id, ...data });
      const base = await commit({
        message: "Plan the trip",
        summary: "A trip to Lisbon.",
        decisions: ["Stay in Baixa"],
        tasks: [{ text: "Book hotel" }],
      });
      // Fork: the line budget starts at the base; then each line goes its own way.
      await post(request, `/v4/repos/${space.id}/branches`, { name: "budget", from_ref: base.id });
      const oursState = {
        summary: "A three-day trip to Lisbon.",
        decisions: ["Stay in Baixa", "Don't rent a car"],
        tasks: [{ text: "Book hotel", done: true }],
      };
      await commit({ message: "Three days, no car", ...oursState });
      const theirs = await commit({
        message: "On a budget",
        branch: "budget",
        summary: "A cheap trip to Lisbon.",
        decisions: ["Stay in Baixa", "Rent a car for the Sintra day trip"],
        tasks: [{ text: "Book hotel" }, { text: "Compare flights" }],
      });

      await page.goto(`/spaces/${space.id}`);
      if (mobile) {
        await page
          .getByRole("navigation", { name: "Views" })
          .getByRole("button", { name: "Checkpoints" })
          .click();
      }
      const history = page.getByRole("list", { name: "Checkpoint history" });
      await expect(history.getByRole("listitem")).toHaveCount(3);

      const dialog = page.getByRole("dialog", { name: "Merge lines" });
      await test.step("from the lines, merge budget into the default line", async () => {
        const lines = page.getByTestId("lines-panel");
        await lines.locator("summary").click();
        await expect(
          lines.getByRole("button", { name: "Merge line main into another line" }),
        ).toBeVisible();
        await shoot(page, vp.name, "00-lines");
        await lines.getByRole("button", { name: "Merge line budget into main" }).click();
        await expect(dialog).toBeVisible();
        await expect(dialog.getByRole("combobox", { name: "Merge from line" })).toHaveValue(
          "budget",
        );
        await expect(dialog.getByRole("combobox", { name: "Merge into line" })).toHaveValue("main");
        await expect(dialog.getByTestId("merge-status")).toContainText("1 conflict to choose");
        await expect(dialog.getByTestId("merge-status")).toContainText(
          `Against their last shared Checkpoint ${base.commit_hash.slice(0, 7)}`,
        );
        // What comes in from budget, per field.
        const changes = dialog.getByTestId("merge-changes");
        await expect(changes.getByRole("region", { name: "Decisions" })).toContainText(
          "added: Rent a car for the Sintra day trip",
        );
        await expect(changes.getByRole("region", { name: "Tasks" })).toContainText(
          "added: [ ] Compare flights",
        );
        const conflict = dialog.getByTestId("merge-conflict");
        await expect(conflict).toHaveCount(1);
        await expect(conflict.getByRole("region", { name: "Base" })).toContainText(
          "A trip to Lisbon.",
        );
        await expect(conflict.getByRole("region", { name: "Ours (main)" })).toContainText(
          "A three-day trip to Lisbon.",
        );
        await expect(conflict.getByRole("region", { name: "Theirs (budget)" })).toContainText(
          "A cheap trip to Lisbon.",
        );
        // Nothing is chosen for the person: no side preselected, and Save says why it waits.
        for (const radio of await conflict.getByRole("radio").all()) {
          await expect(radio).not.toBeChecked();
        }
        await expect(dialog.getByRole("button", { name: "Save merge into main" })).toBeDisabled();
        await expect(
          dialog.getByRole("button", { name: "Save merge into main" }),
        ).toHaveAccessibleDescription("Choose for every conflict to save: 1 left.");
        await expectNoSidewaysScroll(page);
        await shoot(page, vp.name, "01-preview");
      });

      await test.step("choose both summaries, then review the merge", async () => {
        await dialog.getByRole("radio", { name: "Both" }).check();
        await expect(dialog.getByTestId("conflict-result")).toContainText(
          "A three-day trip to Lisbon.",
        );
        await expect(dialog.getByTestId("conflict-result")).toContainText(
          "A cheap trip to Lisbon.",
        );
        await expect(dialog.getByRole("button", { name: "Save merge into main" })).toBeEnabled();
        await shoot(page, vp.name, "02-chosen");
        await dialog.getByRole("button", { name: "Review this merge" }).click();
        const review = dialog.getByTestId("merge-review");
        await expect(review).toBeVisible();
        const combined = review.locator('[data-testid="merge-finding"][data-from-merge="true"]');
        await expect(combined.first()).toContainText("from combining the lines");
        await expect(combined.first()).toContainText("Don't rent a car");
        await expect(combined.first()).toContainText("— from main");
        await expect(combined.first()).toContainText("— from budget");
        await review.scrollIntoViewIfNeeded();
        await expectNoSidewaysScroll(page);
        await shoot(page, vp.name, "03-review");
      });

      let agent: Checkpoint | undefined;
      await test.step("main moves meanwhile: the save is refused, the merge runs again, the choice stays", async () => {
        agent = await commit({
          message: "Packing list",
          ...oursState,
          open_questions: ["Which hotel in Baixa?"],
        });
        await dialog.getByRole("button", { name: "Save merge into main" }).click();
        const moved = dialog.getByTestId("merge-moved");
        await expect(moved).toContainText("main moved while you were merging");
        await expect(moved).toContainText("1 choice still applies");
        await expect(moved).toContainText("Packing list");
        await expect(dialog.getByRole("radio", { name: "Both" })).toBeChecked();
        await expect(dialog.getByTestId("merge-changes")).not.toContainText(
          "Which hotel in Baixa?",
        );
        await shoot(page, vp.name, "04-moved");
      });

      await test.step("save: one Checkpoint on main with both parents", async () => {
        await dialog.getByRole("button", { name: "Save merge into main" }).click();
        await expect(dialog).toBeHidden();
        const head = (await (await request.get(`/v4/repos/${space.id}/head`)).json()) as Checkpoint;
        expect(head.message).toBe("Merge budget into main");
        expect(head.parent_commit_id).toBe(agent?.id);
        expect(head.merge_parent_id).toBe(theirs.id);
        expect(head.summary).toBe("A three-day trip to Lisbon.\n\nA cheap trip to Lisbon.");
        expect(head.decisions).toEqual([
          "Stay in Baixa",
          "Don't rent a car",
          "Rent a car for the Sintra day trip",
        ]);
        expect(head.tasks).toEqual([
          { text: "Book hotel", done: true },
          { text: "Compare flights", done: false },
        ]);
        expect(head.open_questions).toEqual(["Which hotel in Baixa?"]);
        const verify = (await (await request.get(`/v4/repos/${space.id}/verify`)).json()) as {
          ok: boolean;
        };
        expect(verify.ok).toBe(true);
        // The detail names both parents.
        const detail = page.getByRole("article", {
          name: `Checkpoint ${head.commit_hash.slice(0, 7)}`,
        });
        await expect(detail).toBeVisible();
        await expect(detail.getByTestId("merge-parent")).toContainText(
          `${theirs.commit_hash.slice(0, 7)} On a budget`,
        );
        await expect(detail).toContainText("Packing list");
        await shoot(page, vp.name, "05-detail");
        // …and it can be reviewed like any Checkpoint.
        await detail.getByRole("button", { name: "Review", exact: true }).click();
        await expect(detail.getByTestId("review-summary")).toBeVisible();
      });

      await test.step("the lanes join the merge to both parents", async () => {
        await page.getByRole("button", { name: "← All Checkpoints" }).click();
        const rows = history.getByRole("listitem");
        await expect(rows).toHaveCount(5);
        await expect(rows.first()).toContainText("Merge budget into main");
        await expect(rows.first().getByTestId("merge-of")).toContainText(
          `merged ${theirs.commit_hash.slice(0, 7)}`,
        );
        // Two edges leave the merge's dot: to its first parent and, in budget's lane, to theirs.
        await expect(page.locator(".timeline-wrap > .graph path.merge-edge")).toHaveCount(1);
        await expect(page.locator(".timeline-wrap > .graph path")).toHaveCount(4 + 1);
        await shoot(page, vp.name, "06-lanes");
        // Nothing more to merge now.
        const lines = page.getByTestId("lines-panel");
        await lines.locator("summary").click();
        await lines.getByRole("button", { name: "Merge line budget into main" }).click();
        await expect(dialog.getByTestId("merge-status")).toContainText(
          "Nothing to merge: everything on budget is already in main.",
        );
        await dialog.getByRole("button", { name: "Close", exact: true }).last().click();
        await expect(dialog).toBeHidden();
      });
      // The one refused save is the browser's own "409 (Conflict)" line; nothing else.
      const unexpected = console.problems.filter((p) => !p.includes("status of 409"));
      expect(unexpected, "the browser console shows errors").toEqual([]);
      expect(console.problems.length).toBe(1);
    });
  });
}
