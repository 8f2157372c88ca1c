import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/api/client";
import type { SendRequest, SendResponse, Session } from "@/api/models";
import { makeCheckpoint, makeSession, makeTurns } from "@/test/factories";
import { fakeLayout } from "@/test/layout";
import { type ChatSession, ChatSessionProvider } from "../lib/chat-session";
import type { DeliveryProgress } from "../lib/use-send";
import { ChatView } from "./chat-view";

const deliver = vi.fn<(body: SendRequest, progress?: DeliveryProgress) => Promise<SendResponse>>();
const refreshAfterStop = vi.fn();
vi.mock("../api/send-message", () => ({
  useSendMessage: () => deliver,
  useRefreshAfterStop: () => refreshAfterStop,
}));

let restore: () => void;
beforeEach(() => {
  restore = fakeLayout({ viewport: 2000, row: 100 });
  deliver.mockReset();
});
afterEach(() => restore());

const session: Session = makeSession("s1", { turn_count: 2 });

function renderChat(patch: Partial<ChatSession> = {}) {
  const chat: ChatSession = {
    spaceId: "space",
    sessionId: "s1",
    session,
    turns: makeTurns(2),
    turnsError: null,
    mount: vi.fn(),
    mounting: false,
    mountError: null,
    checkpoints: [],
    headId: null,
    providers: {
      default_provider: "offline",
      items: [
        {
          name: "offline",
          label: "Offline",
          configured: true,
          default: true,
          default_model: "offline-1",
          models: ["offline-1"],
          unavailable_reason: null,
          context_windows: {},
        },
      ],
    },
    choice: { provider: "offline", model: "offline-1" },
    setChoice: () => {},
    saveCheckpoint: vi.fn(),
    draftCheckpoint: vi.fn(),
    justSaved: null,
    dismissSaved: vi.fn(),
    onDeleted: vi.fn(),
    ...patch,
  };
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ChatSessionProvider value={chat}>
        <ChatView />
      </ChatSessionProvider>
    </QueryClientProvider>,
  );
  return chat;
}

const reply = (recommended: boolean): SendResponse => {
  const [user, assistant] = makeTurns(2, 3);
  if (!user || !assistant) throw new Error("makeTurns gave fewer Turns");
  return {
    user_turn: user,
    assistant_turn: assistant,
    suggestion: { checkpoint_recommended: recommended, reason: recommended ? "a plan" : null },
  };
};

describe("ChatView's send", () => {
  it("shows the message on its way, locks the composer and the picker, then the nudge", async () => {
    const user = userEvent.setup();
    let answer!: (value: SendResponse) => void;
    deliver.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const chat = renderChat();
    const box = screen.getByRole("textbox", { name: "Message" });

    await user.type(box, "Plan the trip{Enter}");
    expect(deliver).toHaveBeenCalledWith(
      {
        session_id: "s1",
        content: "Plan the trip",
        request_id: expect.stringMatching(/^web-/),
        provider: "offline",
        model: "offline-1",
      },
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    expect(screen.getByTestId("pending-reply")).toHaveTextContent("offline · offline-1");
    expect(screen.getByRole("feed", { name: "Turns" })).toHaveAttribute("aria-busy", "true");
    expect(box).toBeDisabled();
    expect(screen.getByRole("combobox", { name: "Provider" })).toBeDisabled();

    answer(reply(true));
    await waitFor(() => expect(box).toBeEnabled());
    expect(screen.queryByTestId("pending-reply")).toBeNull();
    expect(screen.getByRole("combobox", { name: "Provider" })).toBeEnabled();
    expect(screen.getByText("Reply 4 from offline received.")).toBeInTheDocument();
    expect(screen.getByTestId("nudge")).toHaveTextContent("Good moment for a Checkpoint — a plan");
    await user.click(
      within(screen.getByTestId("nudge")).getByRole("button", { name: "Draft with AI" }),
    );
    await user.click(screen.getByRole("button", { name: "Dismiss the hint" }));
    expect(screen.queryByTestId("nudge")).toBeNull();
    expect(chat.draftCheckpoint).toHaveBeenCalledTimes(1);
  });

  it("drops the pending rows and the nudge when a send fails, and keeps the text", async () => {
    const user = userEvent.setup();
    deliver
      .mockResolvedValueOnce(reply(true))
      .mockRejectedValueOnce(new ApiError(502, "upstream said 500", [], "offline"));
    renderChat();
    const box = screen.getByRole("textbox", { name: "Message" });

    await user.type(box, "first{Enter}");
    await screen.findByTestId("nudge");
    await user.type(box, "second{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Not sent: upstream said 500 (provider: offline)",
    );
    expect(box).toHaveValue("second");
    expect(screen.queryByTestId("pending-reply")).toBeNull();
    expect(screen.queryByTestId("nudge")).toBeNull();
  });

  it("shows the reply as it arrives, and Stop keeps what had arrived, marked stopped", async () => {
    const user = userEvent.setup();
    let progress!: DeliveryProgress;
    deliver.mockImplementation(
      (_body, given) =>
        new Promise((_resolve, reject) => {
          progress = given as DeliveryProgress;
          progress.signal.addEventListener("abort", () =>
            reject(new DOMException("aborted", "AbortError")),
          );
        }),
    );
    renderChat();
    const box = screen.getByRole("textbox", { name: "Message" });

    await user.type(box, "Plan the trip{Enter}");
    progress.onBegin();
    progress.onText("First, **Lisbon**");
    await waitFor(() =>
      expect(screen.getByTestId("pending-reply")).toHaveTextContent("First, Lisbon"),
    );
    expect(screen.getByTestId("pending-reply").querySelector("strong")).toHaveTextContent("Lisbon");
    progress.onText("First, **Lisbon**, then Porto");

    await user.click(screen.getByRole("button", { name: "Stop the reply" }));
    expect(progress.signal.aborted).toBe(true);
    const stopped = screen.getByTestId("pending-reply");
    // The text as it was when Stop was pressed, not as of the last frame.
    expect(stopped).toHaveTextContent("First, Lisbon, then Porto");
    expect(stopped).toHaveTextContent("stopped");
    expect(
      screen.getByText("Reply stopped: what had arrived is kept, marked stopped."),
    ).toBeInTheDocument();
    expect(refreshAfterStop).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(box).toBeEnabled());
    expect(box).toHaveValue(""); // stored with its partial reply: it was sent
  });

  it("keeps the text of a message stopped before its reply began (nothing was stored)", async () => {
    const user = userEvent.setup();
    deliver.mockImplementation(
      (_body, given) =>
        new Promise((_resolve, reject) => {
          given?.signal.addEventListener("abort", () =>
            reject(new DOMException("aborted", "AbortError")),
          );
        }),
    );
    renderChat();
    const box = screen.getByRole("textbox", { name: "Message" });
    await user.type(box, "Plan the trip{Enter}");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(box).toBeEnabled());
    expect(box).toHaveValue("Plan the trip");
    expect(screen.queryByTestId("pending-reply")).toBeNull();
    expect(screen.getByRole("status")).toHaveTextContent("nothing was stored");
  });
});

describe("what the next message receives is the server's, in every browser", () => {
  const plan = makeCheckpoint("ab12cd3", { message: "Plan" });
  const mountedTurns = (seq: number) =>
    makeTurns(2, seq, { checkpoint_id: plan.id, history_base_seq: seq - 1 });

  afterEach(() => localStorage.clear());

  it("sends no mount, even when the last message was sent with one, and says so", async () => {
    const user = userEvent.setup();
    deliver.mockResolvedValue(reply(false));
    const chat = renderChat({ turns: [...makeTurns(2), ...mountedTurns(3)], checkpoints: [plan] });

    const notice = screen.getByTestId("sent-with-mount");
    expect(notice).toHaveTextContent("The last message here was sent with ab12cd3 “Plan” mounted");
    expect(notice).toHaveTextContent("The next one gets every Turn.");
    expect(screen.getByTestId("mount-boundary")).toHaveTextContent(
      "Mounted here for the last message",
    );
    // History, not the next message's context: no Turn is dimmed.
    expect(document.querySelectorAll(".turn.outside")).toHaveLength(0);
    expect(screen.getByTestId("mount-status")).toHaveTextContent("Full history");

    await user.type(screen.getByRole("textbox", { name: "Message" }), "Go on{Enter}");
    await waitFor(() => expect(deliver).toHaveBeenCalled());
    expect(deliver.mock.calls[0]?.[0]).not.toHaveProperty("checkpoint_id");
    expect(deliver.mock.calls[0]?.[0]).not.toHaveProperty("history_base_seq");

    await user.click(
      within(notice).getByRole("button", { name: "Continue from it in a new Session" }),
    );
    expect(chat.mount).toHaveBeenCalledWith(plan.id);
  });

  it("asks an exchange sent with a mount again with that mount", async () => {
    const user = userEvent.setup();
    deliver.mockResolvedValue(reply(false));
    renderChat({ turns: [...makeTurns(2), ...mountedTurns(3)], checkpoints: [plan] });
    await user.click(screen.getByRole("button", { name: "Retry: ask Turn 3 again" }));
    await waitFor(() => expect(deliver).toHaveBeenCalled());
    expect(deliver.mock.calls[0]?.[0]).toMatchObject({
      retry_of: 3,
      checkpoint_id: plan.id,
      history_base_seq: 2,
    });
  });

  it("offers once to start from a mount this browser kept, then forgets it", async () => {
    const user = userEvent.setup();
    localStorage.setItem(
      "smriti.mount.s1",
      JSON.stringify({ mount: { checkpointId: plan.id, historyBaseSeq: 2 } }),
    );
    const chat = renderChat({ checkpoints: [plan] });
    const offer = screen.getByTestId("legacy-mount");
    expect(offer).toHaveTextContent("This browser had ab12cd3 “Plan” mounted in this Session");
    expect(offer).toHaveTextContent("after Turn #2");
    await user.click(
      within(offer).getByRole("button", { name: "Continue from it in a new Session" }),
    );
    expect(chat.mount).toHaveBeenCalledWith(plan.id);
    expect(localStorage.getItem("smriti.mount.s1")).toBeNull();
    expect(screen.queryByTestId("legacy-mount")).toBeNull();
  });

  it("forgets a kept mount when asked to, and an explicit unmount at once", async () => {
    const user = userEvent.setup();
    localStorage.setItem(
      "smriti.mount.s1",
      JSON.stringify({ mount: { checkpointId: plan.id, historyBaseSeq: 2 } }),
    );
    const chat = renderChat({ checkpoints: [plan] });
    await user.click(screen.getByRole("button", { name: "Forget it" }));
    expect(chat.mount).not.toHaveBeenCalled();
    expect(localStorage.getItem("smriti.mount.s1")).toBeNull();

    localStorage.setItem("smriti.mount.s2", JSON.stringify({ mount: null }));
    renderChat({ sessionId: "s2", session: makeSession("s2") });
    expect(screen.queryByTestId("legacy-mount")).toBeNull();
    expect(localStorage.getItem("smriti.mount.s2")).toBeNull();
  });

  it("right after a save, offers to continue from it in a new Session", async () => {
    const user = userEvent.setup();
    const saved = makeCheckpoint("ef45678", { message: "Saved" });
    const chat = renderChat({
      session: makeSession("s1", { base_commit_id: plan.id }),
      checkpoints: [saved, plan],
      justSaved: { checkpoint: saved, line: "from-ab12cd3" },
    });
    const offer = screen.getByTestId("saved-offer");
    expect(offer).toHaveTextContent("Saved ef45678 “Saved” on line from-ab12cd3.");
    expect(offer).toHaveTextContent("The model here still works from ab12cd3 “Plan”");
    expect(screen.getByTestId("mount-status")).toHaveTextContent("Based on Checkpoint ab12cd3");
    await user.click(within(offer).getByRole("button", { name: "Continue from it" }));
    expect(chat.dismissSaved).toHaveBeenCalled();
    expect(chat.mount).toHaveBeenCalledWith(saved.id);
  });

  it("mounts from the header by continuing in a new Session", async () => {
    const user = userEvent.setup();
    const chat = renderChat({ checkpoints: [plan] });
    await user.click(screen.getByText("Mount…"));
    await user.click(screen.getByRole("menuitem", { name: /Plan/ }));
    expect(chat.mount).toHaveBeenCalledWith(plan.id);
  });
});
