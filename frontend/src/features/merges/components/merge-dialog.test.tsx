import { QueryClient, QueryClientProvider, useMutation, useQuery } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/api/client";
import type { Checkpoint, CommitCreate } from "@/api/models";
import { makeCheckpoint, makeLine, makeMergePreview } from "@/test/factories";
import type { MergePreview, MergeReview, MergeReviewRequest } from "../types";
import { MergeDialog } from "./merge-dialog";

const previewFn = vi.fn<(ours: string, theirs: string) => Promise<MergePreview>>();
const reviewFn = vi.fn<(body: MergeReviewRequest) => Promise<MergeReview>>();
const commitFn = vi.fn<(body: CommitCreate) => Promise<Checkpoint>>();
const stored = new Map<string, Checkpoint>();

vi.mock("../api/preview-merge", () => ({
  useMergePreview: (_space: string, ours: string, theirs: string) =>
    useQuery({
      queryKey: ["merge", ours, theirs],
      queryFn: () => previewFn(ours, theirs),
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    }),
}));
vi.mock("../api/review-merge", () => ({
  useReviewMerge: () => useMutation({ mutationFn: (b: MergeReviewRequest) => reviewFn(b) }),
}));
vi.mock("@/features/checkpoints", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/features/checkpoints")>()),
  useCommitCheckpoint: () => useMutation({ mutationFn: (b: CommitCreate) => commitFn(b) }),
  useCheckpoint: (ref: string | null) =>
    useQuery({
      queryKey: ["checkpoint", ref],
      queryFn: () => stored.get(ref ?? "") ?? null,
      enabled: ref !== null,
    }),
}));

beforeAll(() => {
  // jsdom has no modal dialogs.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

const base = makeCheckpoint("base", {
  message: "Plan the trip",
  summary: "A trip to Lisbon.",
  decisions: ["Stay in Baixa"],
  tasks: [{ text: "Book hotel", done: false }],
});
const ours = makeCheckpoint("ours", {
  message: "Three days",
  metadata: { ticket: "TRIP-7", author: { kind: "human", name: "ana" } },
  summary: "A three-day trip to Lisbon.",
  decisions: ["Stay in Baixa", "Day 3: Sintra"],
  tasks: [{ text: "Book hotel", done: true }],
});
const theirs = makeCheckpoint("theirs", {
  message: "On a budget",
  summary: "A cheap trip to Lisbon.",
  decisions: ["Stay in Baixa", "Keep it under 900 EUR"],
  tasks: [
    { text: "Book hotel", done: false },
    { text: "Compare flights", done: false },
  ],
});
const moved = makeCheckpoint("ours2", { ...ours, id: "ours2", message: "Packing list" });
const lines = [makeLine("budget", "theirs"), makeLine("main", "ours", { is_default: true })];

function show() {
  const onMerged = vi.fn();
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MergeDialog
        spaceId="space"
        lines={lines}
        theirs="budget"
        reviewWith={{ provider: null, model: null }}
        onClose={() => {}}
        onMerged={onMerged}
      />
    </QueryClientProvider>,
  );
  return { onMerged, dialog: screen.getByRole("dialog", { name: "Merge lines" }) };
}

beforeEach(() => {
  previewFn.mockReset();
  reviewFn.mockReset();
  commitFn.mockReset();
  for (const c of [base, ours, theirs, moved]) stored.set(c.id, c);
});

describe("merging a line", () => {
  it("shows what comes in, asks for the conflict, reviews, and on a 409 runs again keeping the choice", async () => {
    const user = userEvent.setup();
    previewFn.mockResolvedValueOnce(makeMergePreview());
    const { onMerged, dialog } = show();
    // Into the default line by default.
    expect(within(dialog).getByRole("combobox", { name: "Merge from line" })).toHaveValue("budget");
    expect(within(dialog).getByRole("combobox", { name: "Merge into line" })).toHaveValue("main");
    await screen.findByTestId("merge-conflict");
    expect(previewFn).toHaveBeenCalledWith("main", "budget");
    const changes = await screen.findByTestId("merge-changes");
    expect(within(changes).getByRole("region", { name: "Decisions" })).toHaveTextContent(
      "added: Keep it under 900 EUR",
    );
    expect(within(changes).getByRole("region", { name: "Tasks" })).toHaveTextContent(
      "added: [ ] Compare flights",
    );
    const save = screen.getByRole("button", { name: "Save merge into main" });
    expect(save).toBeDisabled();
    expect(screen.getByRole("button", { name: "Review this merge" })).toBeDisabled();
    expect(dialog).toHaveTextContent("Choose for every conflict to save: 1 left.");

    await user.click(screen.getByRole("radio", { name: "Both" }));
    expect(save).toBeEnabled();
    // The summary now changes on main too.
    expect(within(changes).getByRole("region", { name: "Summary" })).toHaveTextContent(
      "added: A three-day trip to Lisbon. A cheap trip to Lisbon.",
    );

    reviewFn.mockResolvedValueOnce({
      base_commit_id: "base",
      ours_commit_id: "ours",
      theirs_commit_id: "theirs",
      reviewed_by: { provider: "offline", model: "offline-1" },
      findings: [
        {
          kind: "contradiction",
          detail: "Sintra or under 900 EUR? This comes from combining the two lines.",
          refs: [
            { field: "decisions", index: 1 },
            { field: "decisions", index: 2 },
          ],
          source: "rules",
          from_merge: true,
        },
        {
          kind: "hidden_assumption",
          detail: "Baixa assumes a hotel there.",
          refs: [{ field: "decisions", index: 0 }],
          source: "rules",
          from_merge: false,
        },
      ],
    });
    await user.click(screen.getByRole("button", { name: "Review this merge" }));
    const review = await screen.findByTestId("merge-review");
    expect(reviewFn).toHaveBeenCalledWith({
      ours: "ours",
      theirs: "theirs",
      merged: expect.objectContaining({
        summary: "A three-day trip to Lisbon.\n\nA cheap trip to Lisbon.",
      }),
    });
    const findings = within(review).getAllByTestId("merge-finding");
    expect(findings.map((f) => f.dataset.fromMerge)).toEqual(["true", "false"]);
    expect(findings[0]).toHaveTextContent("from combining the lines");
    expect(findings[0]).toHaveTextContent("Decision 2: “Day 3: Sintra” — from main");
    expect(findings[0]).toHaveTextContent("Decision 3: “Keep it under 900 EUR” — from budget");
    expect(findings[1]).toHaveTextContent("Decision 1: “Stay in Baixa” — from both lines");

    // main moved meanwhile: the save is refused, the merge runs again against the new HEAD.
    commitFn.mockRejectedValueOnce(
      new ApiError(409, "HEAD moved.", [{ field: "expected_head_commit_id", message: "moved" }]),
    );
    previewFn.mockResolvedValueOnce(makeMergePreview({ ours_commit_id: "ours2" }));
    await user.click(save);
    const notice = await screen.findByTestId("merge-moved");
    expect(notice).toHaveTextContent("main moved while you were merging");
    expect(notice).toHaveTextContent("1 choice still applies");
    await waitFor(() => expect(notice).toHaveTextContent("Packing list"));
    expect(screen.getByRole("radio", { name: "Both" })).toBeChecked();
    expect(commitFn).toHaveBeenCalledTimes(1);

    commitFn.mockResolvedValueOnce(makeCheckpoint("merge", { merge_parent_id: "theirs" }));
    await user.click(save);
    await waitFor(() => expect(onMerged).toHaveBeenCalled());
    expect(commitFn).toHaveBeenLastCalledWith(
      expect.objectContaining({
        repo_id: "space",
        message: "Merge budget into main",
        branch: "main",
        merge_parent_id: "theirs",
        expected_head_commit_id: "ours2",
        summary: "A three-day trip to Lisbon.\n\nA cheap trip to Lisbon.",
        decisions: ["Stay in Baixa", "Day 3: Sintra", "Keep it under 900 EUR"],
        // The line's metadata goes on; who made its HEAD does not.
        metadata: {
          ticket: "TRIP-7",
          author: expect.not.objectContaining({ name: "ana" }),
        },
      }),
    );
    // The whole journey: ~5 s alone on 2 busy cores, over vitest's default 5 s under load.
  }, 20_000);

  it("chooses nothing for the person, and will not save until they choose, saying why", async () => {
    const user = userEvent.setup();
    previewFn.mockResolvedValueOnce(makeMergePreview());
    show();
    const conflict = await screen.findByTestId("merge-conflict");
    // No side is preselected as if it had been chosen: ours is only the preview's placeholder.
    for (const radio of within(conflict).getAllByRole("radio")) expect(radio).not.toBeChecked();
    const save = screen.getByRole("button", { name: "Save merge into main" });
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription("Choose for every conflict to save: 1 left.");
    expect(screen.getByRole("button", { name: "Review this merge" })).toHaveAccessibleDescription(
      "Choose for every conflict to save: 1 left.",
    );
    // Enter in the message field submits the form: still nothing is saved.
    await user.type(screen.getByRole("textbox", { name: "Merge message" }), "{Enter}");
    expect(commitFn).not.toHaveBeenCalled();

    await user.click(within(conflict).getByRole("radio", { name: "Ours (main)" }));
    expect(save).toBeEnabled();
    expect(save).not.toHaveAccessibleDescription();
    await user.clear(screen.getByRole("textbox", { name: "Merge message" }));
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription("Write a message for the merge to save.");
    expect(commitFn).not.toHaveBeenCalled();
  });

  it("asks again for a conflict that changed when the merge ran again", async () => {
    const user = userEvent.setup();
    previewFn.mockResolvedValueOnce(makeMergePreview());
    show();
    await user.click(await screen.findByRole("radio", { name: "Theirs (budget)" }));
    commitFn.mockRejectedValueOnce(new ApiError(409, "HEAD moved."));
    const [conflict] = makeMergePreview().conflicts;
    previewFn.mockResolvedValueOnce(
      makeMergePreview({
        ours_commit_id: "ours2",
        conflicts: conflict ? [{ ...conflict, ours: "A four-day trip to Lisbon." }] : [],
      }),
    );
    await user.click(screen.getByRole("button", { name: "Save merge into main" }));
    const notice = await screen.findByTestId("merge-moved");
    expect(notice).toHaveTextContent("1 choice no longer applies");
    expect(notice).toHaveTextContent("1 conflict needs a choice");
    expect(screen.getByRole("region", { name: "Ours (main)" })).toHaveTextContent(
      "A four-day trip to Lisbon.",
    );
    expect(screen.getByRole("radio", { name: "Theirs (budget)" })).not.toBeChecked();
    expect(screen.getByRole("button", { name: "Save merge into main" })).toBeDisabled();
  });

  it("keeps a choice the person changed while the merge ran again", async () => {
    const user = userEvent.setup();
    previewFn.mockResolvedValueOnce(makeMergePreview());
    show();
    await user.click(await screen.findByRole("radio", { name: "Theirs (budget)" }));
    commitFn.mockRejectedValueOnce(new ApiError(409, "HEAD moved."));
    let arrive: (preview: MergePreview) => void = () => {};
    previewFn.mockReturnValueOnce(new Promise((resolve) => (arrive = resolve)));
    await user.click(screen.getByRole("button", { name: "Save merge into main" }));
    await screen.findByRole("button", { name: "Running again…" });
    // The person changes their mind before the new run arrives: the new run keeps that choice.
    await user.click(screen.getByRole("radio", { name: "Ours (main)" }));
    arrive(makeMergePreview({ ours_commit_id: "ours2" }));
    expect(await screen.findByTestId("merge-moved")).toHaveTextContent("1 choice still applies");
    expect(screen.getByRole("radio", { name: "Ours (main)" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "Theirs (budget)" })).not.toBeChecked();
  });

  it("says when there is nothing to merge", async () => {
    previewFn.mockResolvedValueOnce(makeMergePreview({ relation: "up_to_date", conflicts: [] }));
    show();
    expect(await screen.findByTestId("merge-status")).toHaveTextContent(
      "Nothing to merge: everything on budget is already in main.",
    );
    expect(screen.queryByRole("button", { name: /Save merge/ })).toBeNull();
    expect(screen.getAllByRole("button", { name: "Close" })).toHaveLength(2);
  });

  it("saves a clean merge at once", async () => {
    previewFn.mockResolvedValueOnce(makeMergePreview({ conflicts: [] }));
    show();
    expect(await screen.findByText(/No conflicts/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save merge into main" })).toBeEnabled();
    expect(screen.queryByTestId("merge-rivals")).toBeNull();
  });

  it("warns of rival choices a clean merge keeps, before saving", async () => {
    const preview = makeMergePreview({ conflicts: [] });
    preview.merged.decisions = ["Stay in Baixa", "Day 3: Sintra", "Stay in Graca"];
    preview.rivals = [
      {
        kind: "same_slot",
        refs: [
          { field: "decisions", index: 0 },
          { field: "decisions", index: 2 },
        ],
        detail: "Decision 3 “Stay in Graca” gives the same choice another value than decision 1.",
      },
    ];
    previewFn.mockResolvedValueOnce(preview);
    show();
    const warning = await screen.findByRole("alert", { name: "Rival choices" });
    expect(warning).toHaveTextContent(
      "1 pair of rival choices: main and budget decided differently.",
    );
    expect(within(warning).getByRole("listitem")).toHaveTextContent(
      "“Stay in Baixa” and “Stay in Graca” (two values for one choice)",
    );
    expect(screen.getByTestId("merge-status")).toHaveTextContent(
      "No conflicts: every change on either line merges cleanly, but the lines made rival choices (below).",
    );
    expect(screen.getByTestId("merge-status")).not.toHaveTextContent("It can be saved at once.");
  });
});
