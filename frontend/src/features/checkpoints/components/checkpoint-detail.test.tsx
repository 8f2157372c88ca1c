import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { keys } from "@/api/keys";
import type { Checkpoint } from "@/api/models";
import type { Review } from "@/api/v5";
import { makeCheckpoint } from "@/test/factories";
import { CheckpointDetail } from "./checkpoint-detail";

function show(
  checkpoint: Checkpoint,
  review: Review | null = null,
  extra: { mergeParent?: Checkpoint; onSelect?: (id: string) => void } = {},
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (review) client.setQueryData(keys.review(checkpoint.id), review);
  return render(
    <QueryClientProvider client={client}>
      <CheckpointDetail
        checkpoint={checkpoint}
        headId={null}
        mountedId={null}
        onMount={null}
        onCompare={() => {}}
        onRestore={() => {}}
        onSelect={extra.onSelect ?? (() => {})}
        mergeParent={extra.mergeParent ?? null}
        reviewWith={{ provider: null, model: null }}
      />
    </QueryClientProvider>,
  );
}

function section(name: string): HTMLElement {
  const found = screen.getByRole("heading", { name: new RegExp(`^${name}`) }).closest("section");
  if (!found) throw new Error(`no section ${name}`);
  return found;
}

describe("the Checkpoint detail", () => {
  it("names the agent the server vouches for, with what its client claimed beside it", () => {
    show(
      makeCheckpoint("c1", {
        metadata: {
          author: { kind: "agent", id: "k1", name: "coder" },
          claimed_author: { kind: "human", name: "Ana" },
          tool: "cli",
        },
      }),
    );
    const by = screen.getByTestId("author");
    expect(by).toHaveAttribute("data-kind", "agent");
    expect(by).toHaveTextContent("agent coder (claimed: Ana)");
    expect(by).toHaveAttribute("title", expect.stringContaining("server vouches"));
    // Shown in "By", so not again among the other metadata.
    expect(screen.queryByText("Claimed author")).not.toBeInTheDocument();
  });

  it("names a person's Checkpoint by the name typed, with no claim", () => {
    show(makeCheckpoint("c1", { metadata: { author: { kind: "human", name: "Ana" } } }));
    const by = screen.getByTestId("author");
    expect(by).toHaveAttribute("data-kind", "person");
    expect(by).toHaveTextContent(/^Ana$/);
  });

  it("shows each review finding once, next to the first item it points at", () => {
    const checkpoint = makeCheckpoint("c1", {
      decisions: ["Fly on Friday", "Fly on Saturday"],
      entities: [{ name: "Lisbon", kind: "city", description: "" }],
    });
    show(checkpoint, {
      commit_id: "c1",
      reviewed_by: { provider: "offline", model: "offline-1" },
      findings: [
        {
          kind: "contradiction",
          detail: "Friday or Saturday?",
          refs: [
            { field: "decisions", index: 0 },
            { field: "decisions", index: 1 },
          ],
          source: "rules",
        },
        {
          kind: "disconnected_entity",
          detail: "Lisbon is not mentioned.",
          refs: [{ field: "entities", index: 0 }],
          source: "rules",
        },
      ],
    });
    const findings = screen.getAllByTestId("finding");
    expect(findings.map((f) => f.textContent)).toEqual([
      "Contradiction Friday or Saturday? (decision 1, decision 2)",
      "Disconnected entity Lisbon is not mentioned.",
    ]);
    expect(screen.getByTestId("review-summary")).toHaveTextContent(
      "2 findings: Contradiction, Disconnected entity",
    );
    expect(within(section("Decisions")).getAllByTestId("finding")).toHaveLength(1);
  });

  it("lists tasks with one marker each (a checkbox, no number)", () => {
    show(
      makeCheckpoint("c2", {
        tasks: [
          { text: "Book the hotel", done: false },
          { text: "Buy tickets", done: true },
        ],
      }),
    );
    const list = within(section("Tasks")).getByRole("list");
    expect(list.tagName).toBe("UL");
    const items = within(list).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([
      "☐ Book the hotel (open)",
      "☑ Buy tickets ✓ done",
    ]);
    // Done is a status in words, not strikethrough (which reads as removed: issue 44 item 16).
    expect(within(items[1] as HTMLElement).getByText("done")).toHaveClass("badge", "task-status");
  });

  it("shows metadata as fields, without repeating the header, and the JSON behind a toggle", () => {
    show(
      makeCheckpoint("c3", {
        metadata: {
          author: { kind: "human", name: "Asha" },
          drafted_by: { provider: "offline", model: "offline-1" },
          source: { session_id: "s", from_seq: 1, to_seq: 6 },
          tool_version: "1.2",
        },
      }),
    );
    // "By" and "Drafted by" are shown once, in the header's facts.
    expect(screen.getAllByText("By")).toHaveLength(1);
    expect(screen.getAllByText("Drafted by")).toHaveLength(1);
    const metadata = section("Metadata");
    expect(within(metadata).getByText("Tool version")).toBeInTheDocument();
    expect(within(metadata).getByText("1.2")).toBeVisible();
    const raw = within(metadata).getByText("Raw metadata (JSON)").closest("details");
    expect(raw).not.toHaveAttribute("open");
    expect(raw?.querySelector("pre")?.textContent).toContain('"tool_version": "1.2"');
  });

  it("renders a Markdown artifact, with a switch to its source", async () => {
    const user = userEvent.setup();
    show(
      makeCheckpoint("c4", {
        artifacts: [
          { name: "itinerary.md", content: "# Day 1\n\n- **Alfama**", media_type: "text/plain" },
          { name: "notes.txt", content: "# not a heading", media_type: "text/plain" },
        ],
      }),
    );
    const [md, txt] = screen.getAllByTestId("artifact");
    if (!md || !txt) throw new Error("two artifacts expected");
    expect(within(md).getByRole("heading", { name: "Day 1" })).toBeInTheDocument();
    expect(within(md).getByText("Alfama").tagName).toBe("STRONG");
    await user.click(within(md).getByRole("button", { name: "Source" }));
    expect(within(md).queryByRole("heading", { name: "Day 1" })).toBeNull();
    expect(md.querySelector("pre")?.textContent).toContain("# Day 1");
    await user.click(within(md).getByRole("button", { name: "Rendered" }));
    expect(within(md).getByRole("heading", { name: "Day 1" })).toBeInTheDocument();
    // Plain text stays plain text.
    expect(within(txt).queryByRole("button", { name: "Source" })).toBeNull();
    expect(txt.querySelector("pre")?.textContent).toBe("# not a heading");
  });

  it("names a merge's second parent, the Checkpoint merged in, and opens it", async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    const theirs = makeCheckpoint("t1", { message: "On a budget" });
    show(makeCheckpoint("m1", { parent_commit_id: "p1", merge_parent_id: "t1" }), null, {
      mergeParent: theirs,
      onSelect,
    });
    const merged = screen.getByTestId("merge-parent");
    expect(merged).toHaveTextContent(`${theirs.commit_hash.slice(0, 7)} On a budget`);
    expect(screen.getByText("Merged in")).toBeInTheDocument();
    await user.click(within(merged).getByRole("button"));
    expect(onSelect).toHaveBeenCalledWith("t1");
  });

  it("says nothing of a merge for an ordinary Checkpoint", () => {
    show(makeCheckpoint("c5"));
    expect(screen.queryByText("Merged in")).toBeNull();
  });
});
