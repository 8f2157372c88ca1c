import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTurns } from "@/test/factories";
import { fakeLayout } from "@/test/layout";
import { buildRows, TurnList } from "./turn-list";

let restore: () => void;
beforeEach(() => {
  restore = fakeLayout({ viewport: 2000, row: 100 });
});
afterEach(() => restore());

const mounted = { hash: "2beaeb4f00d", message: "Plan v1" };

describe("the mount boundary", () => {
  it("is drawn after Turn history_base_seq, with the Turns above it dimmed as outside the context", () => {
    render(
      <TurnList
        turns={makeTurns(6)}
        mount={{ checkpointId: "cp", historyBaseSeq: 4 }}
        mounted={mounted}
        pending={null}
        sessionId="s"
      />,
    );
    const boundary = screen.getByTestId("mount-boundary");
    expect(boundary).toHaveTextContent("Context starts here: Checkpoint 2beaeb4 “Plan v1”");
    expect(boundary).toHaveTextContent("Turns 1–4 above are not sent to the model.");

    const turns = screen.getAllByTestId("turn");
    expect(turns.map((t) => t.dataset.seq)).toEqual(["1", "2", "3", "4", "5", "6"]);
    const outside = turns.filter((t) => t.classList.contains("outside")).map((t) => t.dataset.seq);
    expect(outside).toEqual(["1", "2", "3", "4"]);
    expect(screen.getByLabelText("Turn 4, outside the context")).toBeInTheDocument();
    expect(screen.getByLabelText("Turn 5")).not.toHaveClass("outside");

    // The boundary sits between Turn 4 and Turn 5 in document order.
    const turn4 = screen.getByLabelText("Turn 4, outside the context");
    const turn5 = screen.getByLabelText("Turn 5");
    expect(turn4.compareDocumentPosition(boundary) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(boundary.compareDocumentPosition(turn5) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("is not drawn, and nothing is dimmed, when unmounted", () => {
    render(
      <TurnList turns={makeTurns(4)} mount={null} mounted={null} pending={null} sessionId="s" />,
    );
    expect(screen.queryByTestId("mount-boundary")).not.toBeInTheDocument();
    expect(
      screen.getAllByTestId("turn").filter((t) => t.classList.contains("outside")),
    ).toHaveLength(0);
  });

  it("goes first for a Session mounted while empty, and last right after mounting", () => {
    expect(
      buildRows([], { checkpointId: "c", historyBaseSeq: 0 }, null).map((r) => r.kind),
    ).toEqual(["boundary"]);
    const rows = buildRows(makeTurns(2), { checkpointId: "c", historyBaseSeq: 2 }, null);
    expect(rows.map((r) => r.key)).toEqual(["t1", "t2", "boundary"]);
  });

  it("keys a send in flight by the sequence numbers it will get", () => {
    const rows = buildRows(makeTurns(2), null, {
      content: "hi",
      provider: "offline",
      model: "offline-1",
      text: "",
      phase: "sending",
    });
    expect(rows.map((r) => `${r.kind}:${r.key}`)).toEqual([
      "turn:t1",
      "turn:t2",
      "pending-user:t3",
      "pending-reply:t4",
    ]);
  });

  it("renders only the rows on screen for a long Session", () => {
    render(
      <TurnList turns={makeTurns(5000)} mount={null} mounted={null} pending={null} sessionId="s" />,
    );
    const rendered = screen.getAllByTestId("turn");
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(60);
    // (That a Session opens at its end needs real scrolling: the e2e budget test checks it.)
  });
});

describe("a message's Copy button", () => {
  it("copies the message's raw text (its Markdown source), and says so", async () => {
    const user = userEvent.setup();
    const turns = makeTurns(2);
    const raw = "We decided on **Lisbon**.\n\n```py\nbudget = 2000\n```";
    turns[1] = { ...(turns[1] as (typeof turns)[number]), content: raw };
    render(<TurnList turns={turns} mount={null} mounted={null} pending={null} sessionId="s" />);
    const button = screen.getByRole("button", { name: "Copy message 2" });
    await user.click(button);
    expect(await navigator.clipboard.readText()).toBe(raw);
    expect(button).toHaveTextContent("Copied");
  });
});

describe("retrying the last exchange", () => {
  const retriedOnce = () => [
    ...makeTurns(4),
    ...makeTurns(2, 5).map((turn) => (turn.role === "user" ? { ...turn, retry_of: 3 } : turn)),
  ];

  it("offers Retry on the last reply only, and asks its message again", async () => {
    const asked: number[] = [];
    render(
      <TurnList
        turns={makeTurns(4)}
        mount={null}
        mounted={null}
        pending={null}
        sessionId="s"
        onRetry={(message) => asked.push(message.sequence_number)}
      />,
    );
    const buttons = screen.getAllByRole("button", { name: /^Retry/ });
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toHaveAccessibleName("Retry: ask Turn 3 again");
    await userEvent.click(buttons[0] as HTMLElement);
    expect(asked).toEqual([3]);
  });

  it("is disabled while a send is on its way and absent when the exchange is outside the context", () => {
    const { rerender } = render(
      <TurnList
        turns={makeTurns(4)}
        mount={null}
        mounted={null}
        pending={null}
        sessionId="s"
        onRetry={null}
      />,
    );
    expect(screen.getByRole("button", { name: /^Retry/ })).toBeDisabled();
    rerender(
      <TurnList
        turns={makeTurns(4)}
        mount={{ checkpointId: "cp", historyBaseSeq: 4 }}
        mounted={mounted}
        pending={null}
        sessionId="s"
        onRetry={() => {}}
      />,
    );
    expect(screen.queryByRole("button", { name: /^Retry/ })).not.toBeInTheDocument();
  });

  it("keeps a retried pair in the list, marked as not in the context, and names what a retry asks again", () => {
    render(
      <TurnList turns={retriedOnce()} mount={null} mounted={null} pending={null} sessionId="s" />,
    );
    const dimmed = screen
      .getAllByTestId("turn")
      .filter((t) => t.classList.contains("outside"))
      .map((t) => t.dataset.seq);
    expect(dimmed).toEqual(["3", "4"]);
    expect(screen.getByLabelText("Turn 3, retried: not in the context")).toHaveTextContent(
      "retried",
    );
    expect(screen.getByLabelText("Turn 5")).toHaveTextContent("retry of #3");
    // The retry's own reply is now the last exchange, so Retry moves there.
    expect(screen.getByRole("button", { name: /^Retry/ })).toHaveAccessibleName(
      "Retry: ask Turn 5 again",
    );
  });
});

describe("a reply ended at its length limit", () => {
  it("says it was cut, and a whole reply says nothing", () => {
    const turns = makeTurns(4).map((t) => (t.sequence_number === 4 ? { ...t, at_limit: true } : t));
    render(<TurnList turns={turns} mount={null} mounted={null} pending={null} sessionId="s" />);
    const [cut, ...others] = ["4", "2"].map(
      (seq) => screen.getAllByTestId("turn").find((t) => t.dataset.seq === seq) as HTMLElement,
    );
    expect(cut).toHaveTextContent("cut at the reply limit");
    for (const turn of others) expect(turn).not.toHaveTextContent("cut at the reply limit");
  });
});

describe("who sent a message", () => {
  it("is the agent that sent it with its key, and You for the person's", () => {
    const byAgent = { created_by: { kind: "agent", id: "k1", name: "coder" } };
    // created_by is read through a narrow type until the generated Turn carries it.
    const theirs = makeTurns(2, 3).map((turn) => ({ ...turn, ...byAgent }));
    render(
      <TurnList
        turns={[...makeTurns(2), ...theirs]}
        mount={null}
        mounted={null}
        pending={null}
        sessionId="s"
      />,
    );
    const [first, , third, fourth] = screen.getAllByTestId("turn");
    expect(first?.querySelector(".turn-role")).toHaveTextContent(/^You$/);
    expect(third?.querySelector(".turn-role")).toHaveTextContent(/^agent coder$/);
    expect(fourth?.querySelector(".turn-role")).toHaveTextContent(/^Assistant$/);
  });
});
