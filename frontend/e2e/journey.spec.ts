import { expect, test } from "@playwright/test";
import { guardConsole, sendMessage, shot, turn } from "./helpers";

/**
 * The whole loop a person goes through, against the real backend: create a Space → 3 messages →
 * Draft with AI → edit → save → 2 more → save again (it goes on from the first save) → mount the
 * first Checkpoint (a new Session based on it) → send → exact context → switch provider → review
 * → compare → reload, and everything is still there.
 */
test("a Space from first message to mounted Checkpoint, review and compare, surviving a reload", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const spaceName = `Lisbon trip ${Date.now()}`;

  await test.step("create a Space", async () => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Spaces" })).toBeVisible();
    await page.getByRole("textbox", { name: "Name" }).fill(spaceName);
    await page.getByRole("textbox", { name: "Description (optional)" }).fill("Four days in May");
    await page.getByRole("button", { name: "Create Space" }).click();
    await expect(page).toHaveURL(/\/spaces\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText(spaceName);
    await expect(page).toHaveTitle(`${spaceName} · Smriti`);
  });
  const spaceId = page.url().split("/spaces/")[1] ?? "";

  await test.step("start a Session and send 3 messages", async () => {
    await page.getByRole("button", { name: "+ New Session" }).click();
    await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}/);
    await sendMessage(page, "We decided to fly to **Lisbon** on Friday.", 2);
    // A decision was made: the subtle hint suggests a Checkpoint (it never makes one).
    await expect(page.getByTestId("nudge")).toContainText("Good moment for a Checkpoint");
    await sendMessage(
      page,
      "Assume the budget is 2000 EUR for two people.\n\n```python\nbudget = 2000\n```",
      4,
    );
    await sendMessage(page, "Should we rent a car in Sintra? TODO: book the hotel in Alfama.", 6);
    // Markdown is rendered, code highlighted, and each Turn names its provider and model.
    await expect(turn(page, 1).locator("strong")).toHaveText("Lisbon");
    await expect(turn(page, 3).locator("pre code .hljs-number")).toHaveText("2000");
    // A code block can be copied with one click.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await turn(page, 3).locator("pre").hover();
    await turn(page, 3).getByRole("button", { name: "Copy code" }).click();
    await expect(turn(page, 3).getByRole("button", { name: "Copy code" })).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("budget = 2000");
    await expect(turn(page, 2)).toContainText("offline · offline-1");
    await shot(page, "01-chat");
  });
  const sessionId = page.url().split("/sessions/")[1]?.split("?")[0] ?? "";

  await test.step("Draft with AI, edit the draft, save it", async () => {
    await page.getByRole("button", { name: "Draft with AI" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Save checkpoint" });
    await expect(dialog.getByTestId("draft-provenance")).toContainText(
      "offline · offline-1 from Turns 1–6",
    );
    // The draft proposes; the form changes only when the person accepts.
    await expect(dialog.getByTestId("proposal").first()).toBeVisible();
    await expect(dialog.getByRole("textbox", { name: "Message *" })).toHaveValue("");
    await dialog.getByRole("button", { name: "Accept all" }).click();
    await expect(dialog.getByTestId("proposals")).toHaveCount(0);
    await expect(dialog.getByRole("textbox", { name: "Message *" })).not.toHaveValue("");
    await expect(dialog.getByRole("textbox", { name: "Decision 1", exact: true })).toHaveValue(
      /Lisbon/,
    );
    await shot(page, "02-draft-form");
    await dialog.getByRole("textbox", { name: "Message *" }).fill("Trip plan v1");
    await dialog.getByRole("button", { name: "+ Add assumption" }).click();
    await dialog
      .getByRole("textbox", { name: "Assumption 1", exact: true })
      .fill("Budget is 2000 EUR for two");
    await dialog.getByRole("button", { name: "+ Add artifact" }).click();
    await dialog.getByRole("textbox", { name: "Artifact 1 name" }).fill("itinerary.md");
    await dialog.getByRole("textbox", { name: "Artifact 1 content" }).fill("# Day 1\nAlfama walk");
    await dialog.getByRole("textbox", { name: "Saved by" }).fill("Asha");
    await dialog.getByRole("button", { name: "Save checkpoint" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { name: /Trip plan v1/ })).toBeVisible();
    await expect(page.locator(".checkpoint-detail")).toContainText("Budget is 2000 EUR for two");
    await expect(page.getByTestId("space-head")).toContainText("Trip plan v1");
  });

  // What was saved is what the person saw and edited, with where the draft came from.
  const first = (await (await request.get(`/v4/repos/${spaceId}/head`)).json()) as {
    id: string;
    commit_hash: string;
    assumptions: string[];
    artifacts: { name: string }[];
    metadata: Record<string, unknown>;
  };
  expect(first.assumptions).toEqual(["Budget is 2000 EUR for two"]);
  expect(first.artifacts.map((a) => a.name)).toEqual(["itinerary.md"]);
  expect(first.metadata).toMatchObject({
    author: { kind: "human", name: "Asha" },
    source: { session_id: sessionId, from_seq: 1, to_seq: 6 },
    drafted_by: { provider: "offline", model: "offline-1" },
  });
  const firstShort = first.commit_hash.slice(0, 7);

  await test.step("send 2 more and save a second Checkpoint by hand", async () => {
    await sendMessage(page, "We decided to take the train to Sintra instead of a car.", 8);
    await sendMessage(page, "Add a day trip to Cascais.", 10);
    await page.getByRole("button", { name: "Save checkpoint" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Save checkpoint" });
    // The form goes on from what this Session saved last (HEAD here), with its whole state.
    await expect(dialog.getByTestId("form-parent")).toContainText(
      `Starts from what this Session saved last, ${firstShort}`,
    );
    await expect(dialog.getByTestId("form-parent")).toContainText("Saves on line main.");
    await expect(dialog.getByRole("textbox", { name: "Assumption 1", exact: true })).toHaveValue(
      "Budget is 2000 EUR for two",
    );
    await expect(dialog.getByTestId("parent-diff")).toContainText("+0 −0 ~0");
    await dialog.getByRole("textbox", { name: "Message *" }).fill("Trip plan v2");
    await dialog.getByRole("button", { name: "+ Add decision" }).click();
    const decisions = dialog.getByRole("group", { name: /Decisions/ }).getByRole("textbox");
    await decisions.last().fill("Take the train to Sintra");
    await expect(dialog.getByTestId("form-diff")).toContainText("added: Take the train to Sintra");
    await expect(dialog.getByTestId("parent-diff")).toContainText("+1 −0 ~0");
    await dialog.getByRole("button", { name: "Save checkpoint" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("space-head")).toContainText("Trip plan v2");
  });

  let mountedId = "";
  await test.step("mount the first Checkpoint: a new Session based on it, linked both ways", async () => {
    await page.getByRole("button", { name: "← All Checkpoints" }).click();
    const timeline = page.getByRole("list", { name: "Checkpoint history" });
    await expect(timeline.getByRole("listitem")).toHaveCount(2);
    await expect(timeline.getByRole("listitem").first()).toContainText("HEAD");
    await timeline.getByRole("button", { name: /Trip plan v1/ }).click();
    await page.getByRole("button", { name: "Mount in a new Session" }).click();
    await expect(page).not.toHaveURL(new RegExp(sessionId));
    mountedId = page.url().split("/sessions/")[1]?.split("?")[0] ?? "";
    const status = page.getByTestId("mount-status");
    await expect(status).toContainText(`Based on Checkpoint ${firstShort}`);
    await expect(page.getByTestId("mount-boundary")).toContainText(
      `Context starts here: Checkpoint ${firstShort} “Trip plan v1”`,
    );
    await expect(page.getByTestId("session-origin")).toContainText("after Turn #10");
  });

  await test.step("send in the mounted Session", async () => {
    await sendMessage(page, "What do we know so far?", 2);
    await expect(turn(page, 2)).toContainText(`Mounted Checkpoint: ${firstShort}`);
    await expect(turn(page, 2)).toContainText("History: 0 Turns before your message");
    await shot(page, "03-mounted-chat");
  });
  const turns = (await (await request.get(`/v4/sessions/${mountedId}/turns`)).json()) as {
    items: {
      sequence_number: number;
      checkpoint_id: string | null;
      history_base_seq: number | null;
    }[];
  };
  // The base is the Session's: no boundary is sent with the message.
  expect(turns.items.find((t) => t.sequence_number === 1)).toMatchObject({
    checkpoint_id: first.id,
    history_base_seq: null,
  });

  await test.step("the context panel lists only the Checkpoint and this Session's Turns", async () => {
    await page.getByRole("tab", { name: "Context" }).click();
    const panel = page.getByTestId("context-panel");
    await expect(panel.getByTestId("context-scope")).toContainText(
      `Checkpoint ${firstShort} “Trip plan v1” (this Session's base)`,
    );
    await expect(panel.getByTestId("context-message")).toHaveCount(2);
    const seqs = await panel
      .getByTestId("context-message")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-seq")));
    expect(seqs).toEqual(["1", "2"]);
    await expect(panel.locator(".context-system")).toContainText("Trip plan v1");
    await expect(panel.locator(".context-system")).not.toContainText("Trip plan v2");
    await expect(panel.locator('[data-section="checkpoint"]')).toBeVisible();
    await expect(panel.locator('[data-section="history"]')).toContainText("2");
    await shot(page, "04-context");
  });

  await test.step("switch provider: same Session, the other provider answers", async () => {
    const provider = page.getByRole("combobox", { name: "Provider" });
    await expect(provider.locator("option", { hasText: "Anthropic" })).toBeDisabled();
    await expect(provider.locator("option", { hasText: "Anthropic" })).toContainText(
      "Set ANTHROPIC_API_KEY",
    );
    await provider.selectOption("openai");
    await expect(page.getByRole("combobox", { name: "Model" })).toHaveValue("gpt-5-mini");
    const url = page.url();
    await sendMessage(page, "Summarise the plan in one line.", 4);
    expect(page.url()).toBe(url);
    await expect(turn(page, 4)).toContainText("openai · gpt-5-mini");
    await expect(turn(page, 4)).toContainText("Fake OpenAI");
    await expect(turn(page, 2)).toContainText("offline · offline-1");
    // The context panel follows the switch, and counts with gpt-5-mini's own tokenizer.
    await expect(page.getByTestId("context-panel")).toContainText("Next message goes to openai");
    await expect(page.getByTestId("context-panel")).toContainText("counted with o200k_base");
  });

  await test.step("review the first Checkpoint: findings beside the items they point at", async () => {
    await page.getByRole("tab", { name: /Checkpoints/ }).click();
    // The panel still shows the Checkpoint mounted from it.
    await expect(page.getByRole("article", { name: `Checkpoint ${firstShort}` })).toBeVisible();
    await page.getByRole("button", { name: "Review", exact: true }).click();
    const summary = page.getByTestId("review-summary");
    await expect(summary).toContainText("by openai · gpt-5-mini");
    await expect(summary).toContainText("Hidden assumption");
    // The model's finding points at decision 1, and is shown next to it.
    const decisionSection = page.locator(".detail-section", {
      has: page.getByRole("heading", { name: /Decisions/ }),
    });
    await expect(decisionSection.locator(".item.flagged").first()).toContainText(
      "the first decision relies on",
    );
    await shot(page, "05-review");
  });

  await test.step("compare the two Checkpoints", async () => {
    await page.getByRole("tab", { name: "Compare" }).click();
    const second = (await (await request.get(`/v4/repos/${spaceId}/head`)).json()) as {
      id: string;
    };
    await page.getByRole("combobox", { name: "Compare from" }).selectOption(first.id);
    await page.getByRole("combobox", { name: "Compare to" }).selectOption(second.id);
    const diff = page.getByTestId("diff");
    await expect(diff.getByRole("region", { name: "Message" })).toContainText("Trip plan v2");
    await expect(diff.getByRole("region", { name: "Decisions" })).toContainText(
      "added: Take the train to Sintra",
    );
    await shot(page, "06-compare");
  });

  await test.step("reload: everything is still there", async () => {
    await page.reload();
    await expect(turn(page, 4)).toBeVisible();
    await expect(page.getByTestId("mount-status")).toContainText(
      `Based on Checkpoint ${firstShort}`,
    );
    await expect(page.getByTestId("space-head")).toContainText("Trip plan v2");
    await expect(page.getByTestId("diff").getByRole("region", { name: "Decisions" })).toContainText(
      "Take the train to Sintra",
    );
    await expect(page.getByRole("combobox", { name: "Provider" })).toHaveValue("openai");
    await page.getByRole("tab", { name: /Checkpoints/ }).click();
    await expect(page.getByRole("article", { name: `Checkpoint ${firstShort}` })).toBeVisible();
    await page.getByRole("button", { name: "← All Checkpoints" }).click();
    await expect(
      page.getByRole("list", { name: "Checkpoint history" }).getByRole("listitem"),
    ).toHaveCount(2);
    await page.goto("/");
    await expect(page.getByTestId("space-row").filter({ hasText: spaceName })).toContainText(
      "Trip plan v2",
    );
    await shot(page, "00-spaces");
  });

  console.assertClean();
});
