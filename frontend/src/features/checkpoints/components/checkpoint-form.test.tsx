import { QueryClient, QueryClientProvider, useMutation } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type ComponentProps, type ReactNode, StrictMode } from "react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Checkpoint, CommitCreate, Line } from "@/api/models";
import type { CheckpointDraft } from "@/api/v5";
import { makeCheckpoint } from "@/test/factories";
import { CheckpointFormDialog } from "./checkpoint-form";

const draftFn = vi.fn<(body: unknown) => Promise<CheckpointDraft>>();
const commitFn = vi.fn<(body: CommitCreate) => Promise<Checkpoint>>();
const createLineFn = vi.fn<(body: { name: string; from_ref?: string }) => Promise<Line>>();
const getHeadFn = vi.fn<(spaceId: string, line?: string | null) => Promise<Checkpoint | null>>();

vi.mock("../api/draft-checkpoint", () => ({
  useDraftCheckpoint: () => useMutation({ mutationFn: (b: unknown) => draftFn(b) }),
}));
vi.mock("../api/commit-checkpoint", () => ({
  useCommitCheckpoint: () => useMutation({ mutationFn: (b: CommitCreate) => commitFn(b) }),
}));
vi.mock("../api/get-head", () => ({
  getHead: (spaceId: string, line?: string | null) => getHeadFn(spaceId, line),
}));
vi.mock("@/features/lines", () => ({
  useCreateLine: () =>
    useMutation({ mutationFn: (b: { name: string; from_ref?: string }) => createLineFn(b) }),
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

const checkpoint = makeCheckpoint;
const old = checkpoint("aaa1111", {
  summary: "Lisbon in May",
  decisions: ["Fly on Friday"],
  tasks: [{ text: "Book hotel", done: false }],
  artifacts: [{ name: "plan.md", content: "# Plan", media_type: "text/markdown" }],
});
const head = checkpoint("bbb2222", {
  parent_commit_id: old.id,
  decisions: ["Fly on Friday", "Car"],
});
const line = (name: string, headId: string, isDefault = false): Line => ({
  name,
  head_commit_id: headId,
  head_commit_hash: null,
  is_default: isDefault,
  protected: false,
  created_by: null,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
});
const draft: CheckpointDraft = {
  message: "Train plan",
  summary: "",
  decisions: ["Fly on Friday", "Take the train"],
  assumptions: [],
  tasks: [{ text: "Book hotel", done: true }],
  open_questions: [],
  entities: [],
  source: { session_id: "s", from_seq: 5, to_seq: 8 },
  drafted_by: { provider: "offline", model: "offline-1" },
};

function renderForm(
  parent: Checkpoint,
  lines: Line[],
  mode: "blank" | "draft" = "draft",
  extra: Partial<ComponentProps<typeof CheckpointFormDialog>> = {},
) {
  const onSaved = vi.fn();
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrap = (ui: ReactNode) => <QueryClientProvider client={client}>{ui}</QueryClientProvider>;
  render(
    wrap(
      <CheckpointFormDialog
        open
        mode={mode}
        spaceId="space"
        parent={parent}
        parentReason="base"
        lines={lines}
        checkpoints={[head, old]}
        draftScope={{ sessionId: "s", historyBaseSeq: 4, provider: null, model: null }}
        onClose={() => {}}
        onSaved={onSaved}
        {...extra}
      />,
    ),
  );
  return { onSaved, dialog: screen.getByRole("dialog") };
}

describe("Save checkpoint form", () => {
  it("starts from the parent, offers the draft as proposals, and saves the whole state", async () => {
    const user = userEvent.setup();
    draftFn.mockResolvedValue(draft);
    commitFn.mockImplementation(async (body) => checkpoint("ccc3333", body as Partial<Checkpoint>));
    const { dialog, onSaved } = renderForm(head, [line("main", head.id, true)]);
    const form = within(dialog);

    expect(form.getByRole("textbox", { name: "Decision 2" })).toHaveValue("Car");
    const proposals = await form.findAllByTestId("proposal");
    expect(proposals.map((p) => p.textContent)).toEqual([
      "MessageTrain planAcceptReject",
      "Add decisionTake the trainAcceptReject",
      "Add task[x] Book hotelAcceptReject",
    ]);
    // Nothing changed yet: proposals are not applied silently.
    expect(form.getByRole("textbox", { name: "Message *" })).toHaveValue("");
    expect(form.getByTestId("parent-diff")).toHaveTextContent("+0 −0 ~0");

    await user.click(form.getByRole("button", { name: "Accept: Add decision Take the train" }));
    await user.click(form.getByRole("button", { name: "Reject: Message Train plan" }));
    await user.click(form.getByRole("button", { name: "Reject: Add task [x] Book hotel" }));
    expect(form.queryByTestId("proposals")).toBeNull();
    expect(form.getByTestId("form-diff")).toHaveTextContent("added: Take the train");
    await user.type(form.getByRole("textbox", { name: "Message *" }), "Mine");
    await user.click(form.getByRole("button", { name: "Save checkpoint" }));

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = commitFn.mock.calls[0]?.[0];
    expect(body).toMatchObject({
      message: "Mine",
      summary: "",
      decisions: ["Fly on Friday", "Car", "Take the train"],
      parent_commit_id: head.id,
      expected_head_commit_id: head.id,
      branch: "main",
      metadata: { source: draft.source, drafted_by: draft.drafted_by },
    });
    // Long journeys: ~5 s alone on 2 busy cores, over vitest's default 5 s under load.
  }, 20_000);

  it("records no draft source when every proposal was rejected", async () => {
    const user = userEvent.setup();
    commitFn.mockClear();
    draftFn.mockResolvedValue(draft);
    commitFn.mockImplementation(async () => checkpoint("ddd4444"));
    const { dialog } = renderForm(head, [line("main", head.id, true)]);
    const form = within(dialog);
    await form.findAllByTestId("proposal");
    await user.click(form.getByRole("button", { name: "Reject all" }));
    await user.type(form.getByRole("textbox", { name: "Message *" }), "By hand");
    await user.click(form.getByRole("button", { name: "Save checkpoint" }));
    await waitFor(() => expect(commitFn).toHaveBeenCalled());
    expect(commitFn.mock.calls[0]?.[0].metadata).not.toHaveProperty("source");
  });

  it("from an old state: saves as a new line started there, or carries the edits onto HEAD", async () => {
    const user = userEvent.setup();
    commitFn.mockClear();
    commitFn.mockImplementation(async () => checkpoint("eee5555"));
    createLineFn.mockImplementation(async (b) => line(b.name, old.id));
    const { dialog } = renderForm(old, [line("main", head.id, true)], "blank");
    const form = within(dialog);
    expect(form.getByTestId("save-where")).toHaveTextContent("is not the HEAD of line main");
    await user.type(form.getByRole("textbox", { name: "Message *" }), "Branch off");

    // On top of HEAD: HEAD's state with this form's changes (none yet), so nothing is dropped.
    await user.click(form.getByRole("radio", { name: /on top of main's HEAD/ }));
    expect(form.getByRole("textbox", { name: "Decision 2" })).toHaveValue("Car");
    // HEAD dropped plan.md: HEAD's state is kept as it is, and the diff is now against HEAD.
    expect(form.queryByRole("textbox", { name: "Artifact 1 name" })).toBeNull();
    expect(form.getByTestId("parent-diff")).toHaveTextContent("Changes against bbb2222");
    await user.click(form.getByRole("radio", { name: /as a new line/ }));
    expect(form.queryByRole("textbox", { name: "Decision 2" })).toBeNull();

    const name = form.getByRole("textbox", { name: "New line name" });
    await user.clear(name);
    await user.type(name, "idea");
    await user.click(form.getByRole("button", { name: "Save as a new line" }));
    await waitFor(() => expect(commitFn).toHaveBeenCalled());
    expect(createLineFn).toHaveBeenCalledWith({ name: "idea", from_ref: old.id });
    expect(commitFn.mock.calls[0]?.[0]).toMatchObject({
      branch: "idea",
      parent_commit_id: old.id,
      expected_head_commit_id: old.id,
      decisions: ["Fly on Friday"],
      tasks: [{ text: "Book hotel", done: false }],
    });
  }, 20_000);

  it("keeps what the person typed while the line's HEAD was fetched, moving onto it", async () => {
    const user = userEvent.setup();
    let arrive: (checkpoint: Checkpoint) => void = () => {};
    getHeadFn.mockReturnValueOnce(new Promise((resolve) => (arrive = resolve)));
    // main's HEAD is not among the Checkpoints loaded: the form fetches it before moving.
    const { dialog } = renderForm(old, [line("main", head.id, true)], "blank", {
      checkpoints: [old],
    });
    const form = within(dialog);
    await user.click(form.getByRole("radio", { name: /on top of main's HEAD/ }));
    expect(getHeadFn).toHaveBeenCalledWith("space", "main");
    await user.type(form.getByRole("textbox", { name: "Message *" }), "Typed meanwhile");
    arrive(head);
    await waitFor(() =>
      expect(form.getByRole("radio", { name: /on top of main's HEAD/ })).toBeChecked(),
    );
    expect(form.getByRole("textbox", { name: "Decision 2" })).toHaveValue("Car");
    expect(form.getByRole("textbox", { name: "Message *" })).toHaveValue("Typed meanwhile");
  }, 20_000);

  it("goes on from what the Session saved last, on the line it went to, and records the Session", async () => {
    const user = userEvent.setup();
    commitFn.mockClear();
    createLineFn.mockClear();
    const saved = checkpoint("fff6666", {
      parent_commit_id: old.id,
      decisions: ["Fly on Friday", "Train"],
    });
    commitFn.mockImplementation(async () => checkpoint("ggg7777"));
    const lines = [line("main", head.id, true), line("idea", saved.id)];
    const source = { session_id: "s", from_seq: 1, to_seq: 6 };
    const { dialog, onSaved } = renderForm(saved, lines, "blank", {
      parentReason: "last-saved",
      parentLine: "idea",
      source,
      checkpoints: [saved, head, old],
    });
    const form = within(dialog);
    // It is the HEAD of the line it went to: no question, no new line, nothing of it dropped.
    expect(form.queryByTestId("save-where")).toBeNull();
    expect(form.getByTestId("form-parent")).toHaveTextContent(
      "Starts from what this Session saved last, fff6666",
    );
    expect(form.getByTestId("form-parent")).toHaveTextContent("Saves on line idea.");
    expect(form.getByRole("textbox", { name: "Decision 2" })).toHaveValue("Train");
    await user.type(form.getByRole("textbox", { name: "Message *" }), "Next");
    await user.click(form.getByRole("button", { name: "Save checkpoint" }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(createLineFn).not.toHaveBeenCalled();
    expect(commitFn.mock.calls[0]?.[0]).toMatchObject({
      branch: "idea",
      parent_commit_id: saved.id,
      expected_head_commit_id: saved.id,
      decisions: ["Fly on Friday", "Train"],
      metadata: { source },
    });
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ id: "ggg7777" }), "idea");
  });

  it("goes on top of that line's HEAD when it moved on since the Session saved", async () => {
    const user = userEvent.setup();
    commitFn.mockClear();
    createLineFn.mockClear();
    const saved = checkpoint("fff6666", { parent_commit_id: old.id, decisions: ["Fly on Friday"] });
    const moved = checkpoint("hhh8888", {
      parent_commit_id: saved.id,
      decisions: ["Fly on Friday", "Someone else's"],
    });
    commitFn.mockImplementation(async () => checkpoint("iii9999"));
    const { dialog } = renderForm(
      saved,
      [line("main", head.id, true), line("idea", moved.id)],
      "blank",
      {
        parentReason: "last-saved",
        parentLine: "idea",
        checkpoints: [moved, saved, head, old],
      },
    );
    const form = within(dialog);
    const where = form.getByTestId("save-where");
    expect(where).toHaveTextContent("the line this Session saved to last");
    await waitFor(() =>
      expect(form.getByRole("radio", { name: /on top of idea's HEAD/ })).toBeChecked(),
    );
    expect(form.getByRole("textbox", { name: "Decision 2" })).toHaveValue("Someone else's");
    await user.type(form.getByRole("textbox", { name: "Message *" }), "Mine on top");
    await user.click(form.getByRole("button", { name: "Save checkpoint" }));
    await waitFor(() => expect(commitFn).toHaveBeenCalled());
    expect(createLineFn).not.toHaveBeenCalled();
    expect(commitFn.mock.calls[0]?.[0]).toMatchObject({
      branch: "idea",
      parent_commit_id: moved.id,
      expected_head_commit_id: moved.id,
    });
  });
});

describe("Draft with AI", () => {
  function renderClosedThenOpen(strict: boolean) {
    const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
    const dialog = (open: boolean) => {
      const ui = (
        <QueryClientProvider client={client}>
          <CheckpointFormDialog
            open={open}
            mode="draft"
            spaceId="space"
            parent={head}
            parentReason="head"
            lines={[line("main", head.id, true)]}
            checkpoints={[head, old]}
            draftScope={{ sessionId: "s", historyBaseSeq: null, provider: null, model: null }}
            onClose={() => {}}
            onSaved={() => {}}
          />
        </QueryClientProvider>
      );
      return strict ? <StrictMode>{ui}</StrictMode> : ui;
    };
    // As the workspace does: the dialog is there, closed, and one click opens it in draft mode.
    const view = render(dialog(false));
    view.rerender(dialog(true));
    return { view, dialog };
  }

  it.each([
    ["as built", false],
    ["under StrictMode, as in development", true],
  ])("asks for one draft per click that opens the form (%s)", async (_, strict) => {
    draftFn.mockReset();
    draftFn.mockResolvedValue(draft);
    const { view, dialog } = renderClosedThenOpen(strict);
    expect(await screen.findAllByTestId("proposal")).toHaveLength(3);
    expect(draftFn).toHaveBeenCalledTimes(1);
    // Closed and opened again: a new form, and one more draft.
    view.rerender(dialog(false));
    view.rerender(dialog(true));
    expect(await screen.findAllByTestId("proposal")).toHaveLength(3);
    expect(draftFn).toHaveBeenCalledTimes(2);
  });

  it("proposes nothing the person accepted while the next draft was on its way", async () => {
    const user = userEvent.setup();
    draftFn.mockReset();
    draftFn.mockResolvedValueOnce(draft);
    const { dialog } = renderForm(head, [line("main", head.id, true)]);
    const form = within(dialog);
    await form.findAllByTestId("proposal");
    let arrive: (next: CheckpointDraft) => void = () => {};
    draftFn.mockReturnValueOnce(new Promise((resolve) => (arrive = resolve)));
    await user.click(form.getByRole("button", { name: "Draft with AI" }));
    await form.findByRole("button", { name: "Drafting…" });
    // The first draft's proposals are still there: the person takes one meanwhile.
    await user.click(form.getByRole("button", { name: "Accept: Add decision Take the train" }));
    arrive(draft);
    await form.findByRole("button", { name: "Draft with AI" });
    expect(form.getAllByTestId("proposal").map((p) => p.textContent)).toEqual([
      "MessageTrain planAcceptReject",
      "Add task[x] Book hotelAcceptReject",
    ]);
    expect(
      form
        .getAllByRole("textbox", { name: /^Decision / })
        .map((t) => (t as HTMLInputElement).value),
    ).toEqual(["Fly on Friday", "Car", "Take the train"]);
  }, 20_000);
});
