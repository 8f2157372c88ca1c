import { expect, test } from "@playwright/test";
import { guardConsole, shot } from "./helpers";

/**
 * Agent keys from the app (SYSTEM.md §13), against the real backend: make a key for one Space
 * from the main navigation, copy it (shown once), use it, revoke it; the list follows each step.
 * An app running on an agent's key is told plainly that agents cannot manage keys.
 */
test("an agent key is made for one Space, copied once, used and revoked", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const stamp = Date.now();
  const mine = (await (
    await request.post("/v4/repos", { data: { name: `Mine ${stamp}` } })
  ).json()) as {
    id: string;
  };
  const theirs = (await (
    await request.post("/v4/repos", { data: { name: `Not for agents ${stamp}` } })
  ).json()) as { id: string };
  const agent = `coder-${stamp}`;
  const row = page.locator(`[data-testid="agent-row"][data-agent="${agent}"]`);

  let key = "";
  await test.step("make a key for one Space from the Agents page", async () => {
    await page.goto("/");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Agents" })
      .click();
    await expect(page).toHaveURL(/\/agents$/);
    const form = page.getByRole("form", { name: "New agent key" });
    await form.getByRole("textbox", { name: "Agent name" }).fill(agent);
    await expect(form.getByRole("button", { name: "Make key" })).toBeDisabled();
    await form.getByRole("checkbox", { name: `Mine ${stamp}` }).check();
    await form.getByRole("button", { name: "Make key" }).click();
    const made = page.getByTestId("new-key");
    await expect(made).toContainText("you will not see it again");
    key = await made.getByRole("textbox", { name: "The new key" }).inputValue();
    expect(key).toMatch(/^smr_[A-Za-z0-9_-]{40,}$/);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await made.getByRole("button", { name: "Copy key" }).click();
    await expect(made.getByRole("button", { name: "Copy key" })).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shot(page, "agents-new-key");
    await made.getByRole("button", { name: "I have copied it" }).click();
    await expect(page.getByTestId("new-key")).toHaveCount(0);
    // Shown once: nothing on the page holds it any more.
    await expect(page.locator("body")).not.toContainText(key);
    await expect(row).toContainText(`Reaches Mine ${stamp}`);
    await expect(row).toContainText("reads and writes");
    await expect(row).toContainText("never used");
  });

  await test.step("the key works, and the list says when it was used", async () => {
    const asAgent = { Authorization: `Bearer ${key}` };
    expect((await request.get(`/v4/repos/${mine.id}`, { headers: asAgent })).status()).toBe(200);
    // The Space it was not given is absent to it, as the chooser said.
    expect((await request.get(`/v4/repos/${theirs.id}`, { headers: asAgent })).status()).toBe(404);
    await page.reload();
    await expect(row).toContainText(/last used (just now|\d+ minutes? ago)/);
  });

  await test.step("revoke it: confirm, the list says revoked, the key is refused", async () => {
    await row.getByRole("button", { name: `Revoke the key of ${agent}` }).click();
    const confirm = page.getByRole("dialog", { name: `Revoke the key of “${agent}”?` });
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await expect(confirm).toBeHidden();
    await expect(row).toContainText("revoked");
    await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
    await shot(page, "agents-revoked");
    await expect
      .poll(
        async () =>
          (
            await request.get("/v4/repos", { headers: { Authorization: `Bearer ${key}` } })
          ).status(),
        { timeout: 5_000 },
      )
      .toBe(401);
  });
  console.assertClean();
});

test("an app running on an agent's key says plainly that agents cannot manage keys, and offers no person's controls", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const made = (await (
    await request.post("/v5/agents", {
      data: { name: `reader-${Date.now()}`, spaces: null, write: false },
    })
  ).json()) as { id: string; token: string };
  await page.addInitScript((token) => {
    localStorage.setItem("smriti.api-token", JSON.stringify(token));
  }, made.token);
  await page.goto("/agents");
  await expect(page.getByTestId("agents-refused")).toContainText(
    "agents cannot see or manage agent keys",
  );
  await expect(page.getByRole("form", { name: "New agent key" })).toHaveCount(0);
  // What only the person does is not offered to an agent's app: no Agents link, no Protect.
  await expect(page.getByRole("link", { name: "Agents" })).toHaveCount(0);
  const space = await (
    await request.post("/v4/repos", { data: { name: `Agent's view ${Date.now()}` } })
  ).json();
  const saved = await request.post("/v4/chat/commit", {
    data: { repo_id: space.id, message: "First", summary: "Something to show." },
  });
  expect(saved.status()).toBe(201);
  await page.goto(`/spaces/${space.id}`);
  await page.getByTestId("lines-panel").locator("summary").click();
  await expect(page.getByRole("button", { name: "Rename line main" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Protect line main" })).toHaveCount(0);
  // The refusal is the page's message, not an error the browser reports beside it.
  expect(console.problems.filter((p) => !p.includes("status of 403"))).toEqual([]);
  await request.delete(`/v5/agents/${made.id}`);
});

interface Checkpoint {
  id: string;
  commit_hash: string;
  message: string;
  summary: string;
  decisions: string[];
  parent_commit_id: string | null;
  merge_parent_id: string | null;
}

/**
 * A proposal from an agent, merged by the person from its page: the agent works on a line of its
 * own and opens a proposal with its key; the Space's Proposals tab counts it; its page says who
 * opened it, what comes in and what goes, and the one conflict is chosen with the merge's
 * chooser; Merge makes the merge Checkpoint on main, and the proposal says so.
 */
test("an agent's proposal is opened through the API, reviewed and merged from its page", async ({
  page,
  request,
}) => {
  const console = guardConsole(page);
  const stamp = Date.now();
  const post = async <T>(path: string, data: unknown, headers?: Record<string, string>) => {
    const response = await request.post(path, { data, headers });
    expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
    return (await response.json()) as T;
  };
  const space = await post<{ id: string }>("/v4/repos", { name: `Proposals ${stamp}` });
  const commit = (data: Record<string, unknown>, headers?: Record<string, string>) =>
    post<Checkpoint>("/v4/chat/commit", { repo_id: space.id, ...data }, headers);
  const base = await commit({
    message: "Plan the trip",
    summary: "A trip to Lisbon.",
    decisions: ["Stay in Baixa"],
  });
  const main = await commit({
    message: "Three days",
    summary: "A three-day trip to Lisbon.",
    decisions: ["Stay in Baixa", "Don't rent a car"],
  });
  const agentName = `planner-${stamp}`;
  const key = await post<{ token: string }>("/v5/agents", {
    name: agentName,
    spaces: [space.id],
    write: true,
  });
  const asAgent = { Authorization: `Bearer ${key.token}` };
  // The agent works on a line of its own, which it makes with its key.
  await post(`/v4/repos/${space.id}/branches`, { name: "budget", from_ref: base.id }, asAgent);
  const theirs = await commit(
    {
      message: "On a budget",
      branch: "budget",
      summary: "A cheap trip to Lisbon.",
      decisions: ["Stay in Baixa", "Cap it at 900 EUR"],
    },
    asAgent,
  );
  const opened = await post<{ number: number }>(
    `/v5/repos/${space.id}/proposals`,
    { from: "budget", title: "Cap the budget", description: "Keeps the trip **under 900 EUR**." },
    asAgent,
  );
  expect(opened.number).toBe(1);

  await test.step("the person protects main; the agent's line and Checkpoint name it", async () => {
    await page.goto(`/spaces/${space.id}`);
    const lines = page.getByTestId("lines-panel");
    await lines.locator("summary").click();
    const mainRow = lines.locator('[data-testid="line-row"][data-line="main"]');
    await expect(mainRow.getByTestId("line-protected")).toHaveCount(0);
    await mainRow.getByRole("button", { name: "Protect line main" }).click();
    await expect(mainRow.getByTestId("line-protected")).toBeVisible();
    await expect(mainRow.getByRole("button", { name: "Unprotect line main" })).toBeVisible();
    const refused = await request.post("/v4/chat/commit", {
      data: { repo_id: space.id, message: "Straight to main", decisions: ["Skip review"] },
      headers: asAgent,
    });
    expect(refused.status()).toBe(403);
    const budgetRow = lines.locator('[data-testid="line-row"][data-line="budget"]');
    await expect(budgetRow.getByTestId("author")).toHaveText(`agent ${agentName}`);
    const history = page.getByRole("list", { name: "Checkpoint history" });
    const theirsRow = history.getByRole("listitem").filter({ hasText: "On a budget" });
    await expect(theirsRow.getByTestId("author")).toHaveText(`agent ${agentName}`);
    await expect(theirsRow.getByTestId("author")).toHaveAttribute("data-kind", "agent");
    await shot(page, "agents-lines");
  });

  // The proposal's own answer carries its merge preview: the page shows it without asking again.
  const previewsAsked: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith("/merge")) previewsAsked.push(request.url());
  });
  await test.step("the Space's Proposals tab counts it and lists it", async () => {
    await page.goto(`/spaces/${space.id}`);
    const tab = page.getByRole("tab", { name: /Proposals/ });
    await expect(tab.getByTestId("open-proposals")).toHaveText("1");
    await tab.click();
    const row = page.locator('[data-testid="proposal-row"][data-number="1"]');
    await expect(row).toContainText("budget → main");
    await expect(row).toContainText(`agent ${agentName}`);
    await row.getByRole("link", { name: /Cap the budget/ }).click();
    await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}/proposals/1$`));
  });

  const proposal = page.getByTestId("proposal-page");
  await test.step("its page: who opened it, from → into, what comes in, the conflict", async () => {
    await expect(proposal.getByRole("heading", { level: 1 })).toContainText("Cap the budget");
    await expect(proposal.getByTestId("proposal-status")).toHaveText("open");
    await expect(proposal.getByTestId("proposal-sides")).toContainText("budget → main");
    await expect(proposal.getByTestId("author").first()).toHaveText(`agent ${agentName}`);
    await expect(proposal.locator(".proposal-description strong")).toHaveText("under 900 EUR");
    await expect(
      proposal.getByTestId("merge-changes").getByRole("region", { name: "Decisions" }),
    ).toContainText("added: Cap it at 900 EUR");
    const conflict = proposal.getByTestId("merge-conflict");
    await expect(conflict).toHaveCount(1);
    const merge = proposal.getByRole("button", { name: "Merge proposal #1 into main" });
    await expect(merge).toBeDisabled();
    await conflict.getByRole("radio", { name: "Theirs (budget)" }).check();
    await expect(merge).toBeEnabled();
    await expect(proposal.getByRole("textbox", { name: "Merge message" })).toHaveValue(
      "Merge proposal #1: Cap the budget",
    );
    // The person merges through the proposal: the server records the merge, no name is asked.
    await expect(proposal.getByRole("textbox", { name: "Your name" })).toHaveCount(0);
    expect(previewsAsked, "merge previews asked by the proposal page").toEqual([]);
    await shot(page, "proposal-open");
  });

  await test.step("Merge: the merge Checkpoint on main, the proposal merged, the count gone", async () => {
    await proposal.getByRole("button", { name: "Merge proposal #1 into main" }).click();
    await expect(proposal.getByTestId("proposal-status")).toHaveText("merged");
    const head = (await (await request.get(`/v4/repos/${space.id}/head`)).json()) as Checkpoint;
    expect(head.message).toBe("Merge proposal #1: Cap the budget");
    expect(head.parent_commit_id).toBe(main.id);
    expect(head.merge_parent_id).toBe(theirs.id);
    expect(head.summary).toBe("A cheap trip to Lisbon.");
    expect(head.decisions).toEqual(["Stay in Baixa", "Don't rent a car", "Cap it at 900 EUR"]);
    await expect(proposal.getByTestId("proposal-outcome")).toContainText(
      `Merged into main as Checkpoint ${head.commit_hash.slice(0, 7)}`,
    );
    await shot(page, "proposal-merged");
    await page
      .getByRole("navigation", { name: "Breadcrumb" })
      .getByRole("link", { name: "Proposals", exact: true })
      .click();
    await expect(
      page.getByRole("tab", { name: /Proposals/ }).getByTestId("open-proposals"),
    ).toHaveCount(0);
    await page.getByRole("button", { name: "Merged" }).click();
    await expect(page.locator('[data-testid="proposal-row"][data-number="1"]')).toBeVisible();
  });

  await test.step("a proposal with nothing to merge says so, and is closed with a reason", async () => {
    const again = await post<{ number: number }>(
      `/v5/repos/${space.id}/proposals`,
      { from: "budget", title: "Cap it again" },
      asAgent,
    );
    await page.goto(`/spaces/${space.id}/proposals/${again.number}`);
    await expect(proposal.getByTestId("proposal-blocked")).toHaveText(
      "Everything on budget is already on main: there is nothing to merge.",
    );
    await proposal.getByRole("button", { name: "Close proposal…" }).click();
    const dialog = page.getByRole("dialog", { name: `Close proposal #${again.number}?` });
    await dialog.getByRole("textbox").fill("Already merged in #1");
    await dialog.getByRole("button", { name: "Close proposal" }).click();
    await expect(dialog).toBeHidden();
    await expect(proposal.getByTestId("proposal-status")).toHaveText("closed");
    await expect(proposal.getByTestId("proposal-outcome")).toHaveText(
      "Closed without merging: Already merged in #1",
    );
  });
  console.assertClean();
});
