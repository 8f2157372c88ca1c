import { describe, expect, it } from "vitest";
import { makeMergePreview } from "@/test/factories";
import type { ProposalDetail } from "../types";
import { defaultMergeMessage, mergeBlocker, proposalMergeBody, proposalSides } from "./proposal";

function proposal(patch: Partial<ProposalDetail> = {}): ProposalDetail {
  return {
    id: "p1",
    repo_id: "s1",
    number: 3,
    from: "budget",
    into: "main",
    from_name: "budget",
    into_name: "main",
    from_deleted: false,
    into_deleted: false,
    title: "Cap the budget",
    description: "",
    status: "open",
    created_by: { kind: "agent", id: "k1", name: "coder" },
    merge_commit_id: null,
    closed_reason: null,
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    from_head_commit_id: "theirs",
    into_head_commit_id: "ours",
    relation: "diverged",
    conflicts: [],
    preview: null,
    ...patch,
  };
}

describe("proposalSides", () => {
  it("follows a renamed line, and keeps a deleted one's name from when it was opened", () => {
    const sides = proposalSides(
      proposal({ from: null, from_deleted: true, from_name: "budget", into: "trusted" }),
    );
    expect(sides.from).toEqual({ name: "budget", deleted: true });
    expect(sides.into).toEqual({ name: "trusted", deleted: false });
  });
});

describe("mergeBlocker", () => {
  it("lets an open proposal of two diverged lines be merged", () => {
    expect(mergeBlocker(proposal())).toBeNull();
  });
  it("says why a proposal cannot be merged, naming the line", () => {
    expect(mergeBlocker(proposal({ from: null, from_deleted: true }))).toBe(
      "The line budget was deleted: nothing comes in any more.",
    );
    expect(mergeBlocker(proposal({ into: null, into_deleted: true }))).toContain("line main");
    expect(mergeBlocker(proposal({ relation: null }))).toContain("no Checkpoint yet");
    expect(mergeBlocker(proposal({ relation: "up_to_date" }))).toBe(
      "Everything on budget is already on main: there is nothing to merge.",
    );
  });
  it("has nothing to say of a proposal no longer open (its page says merged or closed)", () => {
    expect(mergeBlocker(proposal({ status: "merged", relation: null }))).toBeNull();
  });
});

describe("proposalMergeBody", () => {
  it("sends the resolved state with the HEADs it was resolved from", () => {
    const preview = makeMergePreview({
      ours_commit_id: "into-head",
      theirs_commit_id: "from-head",
    });
    const resolved = {
      summary: "Under 900 EUR.",
      decisions: ["Cap at 900 EUR"],
      assumptions: [],
      tasks: [],
      open_questions: [],
      entities: [],
      artifacts: [],
    };
    const body = proposalMergeBody({
      run: { preview, choices: [] },
      resolved,
      message: "Merge proposal #3: Cap the budget",
    });
    expect(body).toEqual({
      merged: resolved,
      message: "Merge proposal #3: Cap the budget",
      expected_into_head_commit_id: "into-head",
      expected_from_head_commit_id: "from-head",
    });
  });
});

describe("defaultMergeMessage", () => {
  it("is the one the server writes for a merge without a message", () => {
    expect(defaultMergeMessage({ number: 3, title: "Cap the budget" })).toBe(
      "Merge proposal #3: Cap the budget",
    );
  });
});
