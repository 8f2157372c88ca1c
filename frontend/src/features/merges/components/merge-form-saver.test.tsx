import { QueryClient, QueryClientProvider, useMutation, useQuery } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/api/client";
import type { Checkpoint, CommitCreate } from "@/api/models";
import { makeCheckpoint, makeMergePreview } from "@/test/factories";
import type { MergeSaver, ResolvedMerge } from "../lib/use-merge-form";
import type { MergePreview } from "../types";
import { MergeForm } from "./merge-form";

const previewFn = vi.fn<(ours: string, theirs: string) => Promise<MergePreview>>();
const commitFn = vi.fn<(body: CommitCreate) => Promise<Checkpoint>>();

vi.mock("../api/preview-merge", () => ({
  useMergePreview: (_space: string, ours: string, theirs: string) =>
    useQuery({
      queryKey: ["merge", ours, theirs],
      queryFn: () => previewFn(ours, theirs),
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    }),
}));
vi.mock("@/features/checkpoints", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/features/checkpoints")>()),
  useCommitCheckpoint: () => useMutation({ mutationFn: (b: CommitCreate) => commitFn(b) }),
  useCheckpoint: (ref: string | null) =>
    useQuery({
      queryKey: ["checkpoint", ref],
      queryFn: () => makeCheckpoint(ref ?? "none", { summary: "A three-day trip to Lisbon." }),
      enabled: ref !== null,
    }),
}));

beforeEach(() => {
  previewFn.mockReset();
  commitFn.mockReset();
});

function show(save: (merge: ResolvedMerge) => Promise<unknown>) {
  const saver: MergeSaver = {
    save,
    pending: false,
    error: null,
    reset: () => {},
    label: "Merge proposal #3 into main",
    defaultMessage: "Merge proposal #3: Cap the budget",
  };
  const client = new QueryClient();
  render(
    <QueryClientProvider client={client}>
      <MergeForm
        spaceId="space"
        ours="main"
        theirs="budget"
        reviewWith={{ provider: null, model: null }}
        saver={saver}
        onClose={() => {}}
        onMerged={() => {}}
      />
    </QueryClientProvider>,
  );
}

describe("a merge saved through a saver (a proposal's merge)", () => {
  it("hands it the resolved state with its message, commits nothing itself, asks no name", async () => {
    const user = userEvent.setup();
    previewFn.mockResolvedValueOnce(makeMergePreview());
    const save = vi.fn<(merge: ResolvedMerge) => Promise<unknown>>().mockResolvedValue({});
    show(save);
    await screen.findByTestId("merge-conflict");
    expect(screen.getByRole("textbox", { name: "Merge message" })).toHaveValue(
      "Merge proposal #3: Cap the budget",
    );
    expect(screen.queryByRole("textbox", { name: "Your name" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "Theirs (budget)" }));
    await user.click(screen.getByRole("button", { name: "Merge proposal #3 into main" }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const [merge] = save.mock.calls[0] ?? [];
    expect(merge?.message).toBe("Merge proposal #3: Cap the budget");
    expect(merge?.run.preview.ours_commit_id).toBe("ours");
    expect(merge?.resolved.summary).toBe("A cheap trip to Lisbon.");
    expect(commitFn).not.toHaveBeenCalled();
  });

  it("runs the merge again when the saver is refused because a line moved, keeping the choice", async () => {
    const user = userEvent.setup();
    previewFn.mockResolvedValueOnce(makeMergePreview());
    const save = vi
      .fn<(merge: ResolvedMerge) => Promise<unknown>>()
      .mockRejectedValueOnce(new ApiError(409, "main moved."));
    show(save);
    await screen.findByTestId("merge-conflict");
    await user.click(screen.getByRole("radio", { name: "Theirs (budget)" }));
    previewFn.mockResolvedValueOnce(makeMergePreview({ ours_commit_id: "ours2" }));
    await user.click(screen.getByRole("button", { name: "Merge proposal #3 into main" }));
    expect(await screen.findByTestId("merge-moved")).toHaveTextContent("1 choice still applies");
    expect(previewFn).toHaveBeenCalledTimes(2);
    expect(screen.getByRole("radio", { name: "Theirs (budget)" })).toBeChecked();
  });
});
