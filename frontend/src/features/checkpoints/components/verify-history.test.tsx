import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { expect, it } from "vitest";
import { VerifyHistory } from "./verify-history";

it("draws Verify history as a button, like the app's other buttons", () => {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <VerifyHistory spaceId="space" />
    </QueryClientProvider>,
  );
  const button = screen.getByRole("button", { name: "Verify history" });
  expect(button).toHaveClass("btn");
  // A ghost button has no border or background: it read as plain text.
  expect(button).not.toHaveClass("ghost");
});
