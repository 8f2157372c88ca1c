import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { keys } from "@/api/keys";
import type { SpaceEvent } from "@/api/models";
import { whileSending } from "@/lib/sending";
import { EventApplier } from "./apply-event";

const event = (id: number, type: string, data: Record<string, unknown> = {}): SpaceEvent => ({
  id,
  type,
  at: "2026-01-01T00:00:00Z",
  repo_id: "space1",
  actor: { kind: "agent", name: "planner", id: "a1" },
  data,
});

function refreshed(events: SpaceEvent[]) {
  const queryClient = new QueryClient();
  const invalidate = vi.spyOn(queryClient, "invalidateQueries").mockResolvedValue();
  const applier = new EventApplier(queryClient, 60_000);
  for (const e of events) applier.add(e);
  expect(invalidate).not.toHaveBeenCalled(); // gathered, not yet applied
  applier.flush();
  return invalidate.mock.calls.map(([filters]) => filters?.queryKey);
}

describe("what an event refreshes", () => {
  it("a Checkpoint: the Space, the Spaces list, its timeline, its lines and its activity", () => {
    const saved = refreshed([event(1, "checkpoint.created", { branch: "main" })]);
    expect(saved).toEqual(
      expect.arrayContaining([
        keys.space("space1"),
        keys.spaces(),
        keys.checkpoints("space1"),
        keys.lines("space1"),
        keys.events("space1"),
      ]),
    );
    expect(saved).toContainEqual(keys.proposals("space1")); // a proposal shows its lines' HEADs
    expect(saved).not.toContainEqual(keys.sessions("space1"));
  });

  it("a proposal opened: its Space's proposals only (and the activity)", () => {
    expect(refreshed([event(1, "proposal.opened", { number: 1 })])).toEqual([
      keys.proposals("space1"),
      keys.events("space1"),
    ]);
  });

  it("a burst refreshes each query once, not once per event", () => {
    const burst = Array.from({ length: 500 }, (_, i) =>
      event(i + 1, "turns.added", { session_id: "s1", from_seq: i, to_seq: i }),
    );
    const keysRefreshed = refreshed(burst);
    expect(keysRefreshed).toHaveLength(new Set(keysRefreshed.map((k) => JSON.stringify(k))).size);
    expect(keysRefreshed).toEqual(
      expect.arrayContaining([keys.sessions("space1"), keys.session("s1"), keys.context("s1")]),
    );
    expect(keysRefreshed).toContainEqual(keys.space("space1")); // its usage
    expect(keysRefreshed).toHaveLength(6);
  });
});

describe("new Turns", () => {
  const turn = (n: number) => ({ sequence_number: n, role: "user", content: `t${n}` });

  async function appended(sending: boolean) {
    const queryClient = new QueryClient();
    queryClient.setQueryData(keys.turns("s1"), [turn(1), turn(2)]);
    const fetched = vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(JSON.stringify({ items: [turn(3), turn(4)], total: 2, limit: 200, offset: 0 }), {
        headers: { "content-type": "application/json" },
      }),
    );
    const applier = new EventApplier(queryClient, 60_000);
    vi.spyOn(queryClient, "invalidateQueries").mockResolvedValue();
    let release = () => {};
    const send = whileSending("s1", () => new Promise<void>((resolve) => (release = resolve)));
    if (!sending) {
      release();
      await send;
    }
    applier.add(event(9, "turns.added", { session_id: "s1", from_seq: 3, to_seq: 4 }));
    applier.flush();
    await vi.waitFor(() =>
      expect(fetched.mock.calls.length).toBeGreaterThanOrEqual(sending ? 0 : 1),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    await send;
    fetched.mockRestore();
    return queryClient
      .getQueryData<{ sequence_number: number }[]>(keys.turns("s1"))
      ?.map((t) => t.sequence_number);
  }

  it("another tab's, the CLI's or an agent's are appended after the last one cached", async () => {
    expect(await appended(false)).toEqual([1, 2, 3, 4]);
  });

  it("not while this tab sends in the Session: the send caches its own pair", async () => {
    expect(await appended(true)).toEqual([1, 2]);
  });
});
