import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { guardConsole, sendMessage, turn } from "./helpers";

/**
 * What a new user hit (issue 21), at a laptop's width and a phone's: raw HTML in a message,
 * Compare overflowing its panel, a reply below the fold, Sessions that could not be renamed, no
 * Copy or Retry per message, and a mount chip cut to "Based on Checkpoint f0…".
 */
const viewports = [
  { name: "1366 px", width: 1366, height: 800 },
  { name: "390 px", width: 390, height: 844 },
];

type Created = { id: string };

async function post<T = Created>(request: APIRequestContext, path: string, data: unknown) {
  const response = await request.post(path, { data });
  expect(response.ok(), `${path}: ${response.status()}`).toBeTruthy();
  return (await response.json()) as T;
}

/** Inside `outer`, horizontally: the box of `inner` does not stick out (1 px of rounding). */
async function expectInside(inner: Locator, outer: Locator) {
  const a = await inner.boundingBox();
  const b = await outer.boundingBox();
  if (!a || !b) throw new Error("not rendered");
  expect(a.x).toBeGreaterThanOrEqual(b.x - 1);
  expect(a.x + a.width).toBeLessThanOrEqual(b.x + b.width + 1);
}

for (const vp of viewports) {
  const mobile = vp.width < 860;
  /** On a phone the workspace shows one view at a time, chosen in the "Views" bar. */
  const view = async (page: Page, name: "Sessions" | "Chat" | "Checkpoints") => {
    if (mobile) {
      await page.getByRole("navigation", { name: "Views" }).getByRole("button", { name }).click();
    }
  };

  test.describe(`a new user at ${vp.name}`, () => {
    test.use({ viewport: { width: vp.width, height: vp.height } });

    test("raw HTML stays text, Copy and Retry per message, the reply is in view, Sessions have a name and can be renamed", async ({
      page,
      request,
    }) => {
      const console = guardConsole(page);
      page.on("dialog", (dialog) => {
        throw new Error(`a dialog opened: ${dialog.message()}`);
      });
      const space = await post(request, "/v4/repos", {
        name: `New user ${vp.width} ${Date.now()}`,
      });
      await page.goto(`/spaces/${space.id}`);
      await page.getByRole("button", { name: "+ New Session" }).click();
      await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}/);
      const sessionId = page.url().split("/sessions/")[1]?.split("?")[0] ?? "";

      // Item 4: a short readable name until the first message titles it, renamed in place.
      const heading = page.locator(".chat-title h1");
      await expect(heading).toHaveText("New Session");
      await page.getByRole("button", { name: "Rename Session" }).click();
      const name = page.getByRole("textbox", { name: "Session name" });
      await name.fill("Lisbon trip planning");
      await name.press("Enter");
      await expect(heading).toHaveText("Lisbon trip planning");
      const stored = await (await request.get(`/v4/sessions/${sessionId}`)).json();
      expect(stored.title).toBe("Lisbon trip planning");

      // Item 1: HTML in a message is shown as written, never interpreted.
      const raw =
        "Wrap links in an <a> tag, like this:\n\n| Day | Plan |\n| --- | --- |\n| 1 | Alfama |\n\n<script>alert(1)</script>";
      await sendMessage(page, raw, 2);
      const mine = turn(page, 1);
      await expect(mine.locator(".turn-body a")).toHaveCount(0);
      await expect(mine).toContainText("Wrap links in an <a> tag, like this:");
      await expect(mine.locator("table td").first()).toHaveText("1");
      await expect(mine).toContainText("<script>alert(1)</script>");
      await expect(turn(page, 2).locator(".turn-body a")).toHaveCount(0);

      // Item 5: Copy copies the message's raw text.
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      const copy = page.getByRole("button", { name: "Copy message 1" });
      await copy.click();
      await expect(copy).toHaveText("Copied");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(raw);

      // Item 3: with more Turns than fit, a new reply is scrolled into view…
      for (let i = 0; i < 4; i += 1) {
        await post(request, "/v4/chat/send", {
          session_id: sessionId,
          content: `Earlier message ${i}: ${"some words to fill the screen ".repeat(4)}`,
        });
      }
      await page.reload();
      await view(page, "Chat");
      await expect(turn(page, 10)).toBeVisible();
      await sendMessage(page, "What do we know so far?", 12);
      const list = page.getByTestId("turn-list");
      await expect(async () => {
        const reply = await turn(page, 12).boundingBox();
        const box = await list.boundingBox();
        if (!reply || !box) throw new Error("not rendered");
        expect(reply.y).toBeGreaterThanOrEqual(box.y - 1);
        expect(reply.y + reply.height, "the reply's bottom is above the fold").toBeLessThanOrEqual(
          box.y + box.height + 1,
        );
      }).toPass({ timeout: 5_000 });

      // …unless the person scrolled up to read while it was on its way.
      await page.getByRole("combobox", { name: "Provider" }).selectOption("openai");
      const box = page.getByRole("textbox", { name: "Message" });
      await box.fill("And the budget?");
      await box.press("Enter");
      await expect(page.getByTestId("pending-reply")).toBeVisible();
      await list.evaluate((el) => {
        el.scrollTop = 0;
      });
      // (Turn 14 is not in the DOM up here: the list is virtualised. The live region says it came.)
      await expect(page.getByText("Reply 14 from openai received.")).toBeAttached();
      await page.waitForTimeout(300);
      expect(await list.evaluate((el) => el.scrollTop)).toBeLessThan(50);

      // Item 5: Retry asks the last exchange again; the old pair stays, marked, out of the context.
      await list.evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      await page.getByRole("button", { name: "Retry: ask Turn 13 again" }).click();
      await expect(turn(page, 16)).toBeVisible();
      await expect(turn(page, 15)).toContainText("retry of #13");
      await expect(turn(page, 15)).toContainText("And the budget?");
      await expect(page.getByRole("button", { name: "Retry: ask Turn 15 again" })).toBeVisible();
      // Up, a screen at a time, until Turn 13 is on screen (only the rows on screen are in the DOM).
      await expect(async () => {
        await list.evaluate((el) => {
          el.scrollTop -= el.clientHeight / 2;
        });
        await expect(turn(page, 13)).toBeInViewport({ timeout: 200 });
      }).toPass();
      await expect(turn(page, 13)).toHaveAttribute(
        "aria-label",
        "Turn 13, retried: not in the context",
      );
      const context = await post<{
        messages: { sequence_number: number }[];
        left_out: { sequence_numbers: number[] } | null;
      }>(request, "/v4/chat/context", { session_id: sessionId, provider: "openai" });
      // Turn 12 is the offline provider's reply: OpenAI is not sent it (it is listed as left out).
      expect(context.messages.map((m) => m.sequence_number).slice(-3)).toEqual([11, 15, 16]);
      expect(context.left_out?.sequence_numbers).toContain(12);

      // The new name is in the Session list too, after a reload.
      await page.reload();
      await view(page, "Sessions");
      await expect(page.locator(".session-title").first()).toHaveText("Lisbon trip planning");
      console.assertClean();
    });

    test("Compare fits its panel and starts from parent → HEAD; the mount chip and badges are readable", async ({
      page,
      request,
    }) => {
      const console = guardConsole(page);
      const space = await post(request, "/v4/repos", { name: `Compare ${vp.width} ${Date.now()}` });
      const long = "a Checkpoint message long enough to be wider than the panel it is listed in";
      const first = await post(request, "/v4/chat/commit", {
        repo_id: space.id,
        message: `Trip plan v1, ${long}`,
        decisions: ["Fly on Friday"],
      });
      const second = await post(request, "/v4/chat/commit", {
        repo_id: space.id,
        message: `Trip plan v2, ${long}`,
        parent_commit_id: first.id,
        decisions: ["Fly on Friday", "Take the train to Sintra"],
      });
      const session = await post(request, `/v4/repos/${space.id}/sessions`, { title: "Trip" });
      for (let i = 1; i <= 2; i += 1) {
        await post(request, "/v4/chat/send", { session_id: session.id, content: `Message ${i}` });
      }
      // A retried exchange: its Turns carry a badge ("retried").
      await post(request, "/v4/chat/send", {
        session_id: session.id,
        content: "Message 2",
        retry_of: 3,
      });

      // Item 2: both selects inside the panel; HEAD's parent → HEAD compared at once.
      await page.goto(`/spaces/${space.id}/sessions/${session.id}?panel=compare`);
      await view(page, "Checkpoints");
      const panel = page.locator(".ws-panel");
      const from = page.getByRole("combobox", { name: "Compare from" });
      const to = page.getByRole("combobox", { name: "Compare to" });
      await expect(from).toHaveValue(first.id);
      await expect(to).toHaveValue(second.id);
      await expect(
        page.getByTestId("diff").getByRole("region", { name: "Decisions" }),
      ).toContainText("added: Take the train to Sintra");
      await expectInside(from, panel);
      await expectInside(to, panel);
      expect(await panel.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

      // Badges stay on one line: in the Turns ("retried") and in the timeline.
      await view(page, "Chat");
      await expect(turn(page, 6)).toBeVisible();
      await expect(page.locator(".turn .badge").first()).toBeVisible();
      const oneLine = async (badges: Locator) => {
        const heights = await badges.evaluateAll((els) =>
          els
            .filter((el) => el.getClientRects().length > 0)
            .map((el) => el.getBoundingClientRect().height),
        );
        expect(heights.length).toBeGreaterThan(0);
        for (const height of heights) expect(height).toBeLessThan(22);
      };
      await oneLine(page.locator(".turn .badge"));
      const heads = await page
        .locator(".turn-head")
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
      for (const height of heads) expect(height, "a Turn's head on one line").toBeLessThan(26);

      // Item 9: mounted (a new Session based on it), the chip shows the whole short hash and
      // the message, inside the header.
      await page.locator(".mount-control summary").click();
      await page.getByRole("menuitem", { name: /Trip plan v1/ }).click();
      const chip = page.locator(".mount-chip");
      await expect(chip).toContainText("Based on Checkpoint");
      const hash = chip.locator("code");
      await expect(hash).toHaveText(/^[0-9a-f]{7}$/);
      await expectInside(hash, chip);
      await expectInside(chip, page.locator(".chat-header"));
      const message = chip.locator(".mount-message");
      expect((await message.boundingBox())?.width ?? 0).toBeGreaterThan(40);
      await expectInside(chip.locator(".mount-after"), chip);
      await view(page, "Checkpoints");
      await page.getByRole("tab", { name: /Checkpoints/ }).click();
      await oneLine(page.locator(".ws-panel .badge"));
      console.assertClean();
    });
  });
}
