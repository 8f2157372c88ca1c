import { QueryClient, QueryClientProvider, useMutation } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { Session } from "@/api/models";
import { makeSession } from "@/test/factories";
import { SessionTitle } from "./session-title";

const renameFn = vi.fn<(body: { sessionId: string; title: string }) => Promise<Session>>();
vi.mock("../api/rename-session", () => ({
  useRenameSession: () =>
    useMutation({ mutationFn: (b: { sessionId: string; title: string }) => renameFn(b) }),
}));

const session: Session = makeSession("s1", {
  title: "Session 1",
  created_at: "2026-12-01T18:04:00Z",
  updated_at: "2026-12-01T18:04:00Z",
});

function show() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SessionTitle session={session} />
    </QueryClientProvider>,
  );
}

describe("renaming a Session", () => {
  it("edits the name in place; Enter saves it", async () => {
    const user = userEvent.setup();
    renameFn.mockResolvedValue({ ...session, title: "Lisbon trip" });
    show();
    expect(screen.getByRole("heading", { name: "Session 1" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Rename Session" }));
    const input = screen.getByRole("textbox", { name: "Session name" });
    expect(input).toHaveValue("Session 1");
    await user.clear(input);
    await user.type(input, "  Lisbon trip {Enter}");
    expect(renameFn).toHaveBeenCalledWith({ sessionId: "s1", title: "Lisbon trip" });
    expect(await screen.findByRole("heading")).toBeInTheDocument();
  });

  it("Escape keeps the old name", async () => {
    const user = userEvent.setup();
    renameFn.mockClear();
    show();
    await user.click(screen.getByRole("button", { name: "Rename Session" }));
    await user.type(screen.getByRole("textbox", { name: "Session name" }), "x{Escape}");
    expect(renameFn).not.toHaveBeenCalled();
    expect(screen.getByRole("heading", { name: "Session 1" })).toBeInTheDocument();
  });
});
