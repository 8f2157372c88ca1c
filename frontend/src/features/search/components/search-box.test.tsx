import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { FoundHit } from "../api/search";
import { SearchBox } from "./search-box";

const carried: FoundHit = {
  kind: "checkpoint",
  repo_id: "r1",
  commit_id: "c3",
  commit_hash: "3333333aaaa",
  session_id: null,
  session_title: null,
  sequence_number: null,
  field: "decisions[0]",
  snippet: "Take the zeppelin",
  highlights: [[9, 17]],
  rank: 0.2,
  earlier: [
    { commit_id: "c2", commit_hash: "2222222bbbb", field: "decisions[0]" },
    { commit_id: "c1", commit_hash: "1111111cccc", field: "decisions[0]" },
  ],
};
const turn: FoundHit = {
  ...carried,
  kind: "turn",
  commit_id: null,
  commit_hash: null,
  session_id: "s1",
  session_title: "Travel chat",
  sequence_number: 4,
  field: "content",
  snippet: "a zeppelin?",
  highlights: [[2, 10]],
  rank: 0.1,
  earlier: [],
};

vi.mock("../api/search", () => ({
  useSearch: (query: string) => ({
    isError: false,
    data: query ? { items: [carried, turn], total: 4, total_is_exact: true } : undefined,
  }),
}));

async function typed() {
  const user = userEvent.setup();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SearchBox spaceId="r1" />
    </QueryClientProvider>,
  );
  const box = screen.getByRole("searchbox", { name: "Search this Space" });
  await user.type(box, "z");
  await screen.findByText("4 matches");
  return { user, box };
}

describe("the search box's results", () => {
  it("show an item carried forward once, by its newest Checkpoint's short hash, and a Turn's Session", async () => {
    await typed();
    const links = screen.getAllByRole("link");
    expect(links.map((link) => link.querySelector(".search-where")?.textContent)).toEqual([
      "Checkpoint 3333333 · Decision 1",
      "Turn 4 · “Travel chat”",
    ]);
    expect(screen.getByRole("button", { name: "and 2 earlier" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  });

  it("move with Up and Down from the box, and Enter on 'and N earlier' lists them", async () => {
    const { user, box } = await typed();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("link", { name: /Checkpoint 3333333/ })).toHaveFocus();
    await user.keyboard("{ArrowDown}");
    const more = screen.getByRole("button", { name: "and 2 earlier" });
    expect(more).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(more).toHaveAttribute("aria-expanded", "true");
    const earlier = screen.getByRole("list", { name: "Earlier Checkpoints" });
    expect(earlier).toHaveTextContent(
      "Checkpoint 2222222 · Decision 1Checkpoint 1111111 · Decision 1",
    );
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("link", { name: "Checkpoint 2222222 · Decision 1" })).toHaveFocus();
    expect(screen.getByRole("link", { name: "Checkpoint 2222222 · Decision 1" })).toHaveAttribute(
      "href",
      "/spaces/r1?checkpoint=c2",
    );
    await user.keyboard("{ArrowDown}{ArrowDown}{ArrowDown}");
    expect(screen.getByRole("link", { name: /Turn 4/ })).toHaveFocus();
    await user.keyboard("{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}");
    expect(box).toHaveFocus();
  });

  it("Escape in the results goes back to the box, and from the box closes them", async () => {
    const { user, box } = await typed();
    await user.keyboard("{ArrowDown}{ArrowDown}");
    await user.keyboard("{Escape}");
    expect(box).toHaveFocus();
    expect(screen.getByRole("region", { name: "Search results" })).toBeInTheDocument();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("region", { name: "Search results" })).not.toBeInTheDocument();
  });
});
