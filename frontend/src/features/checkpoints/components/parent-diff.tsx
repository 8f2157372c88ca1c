import { useMemo } from "react";
import type { Checkpoint } from "@/api/models";
import { CheckpointName } from "@/components/checkpoint-name";
import { diffStats } from "../lib/diff";
import type { CheckpointFormValues } from "../lib/form";
import { diffAgainstParent } from "../lib/form-diff";
import { DiffSections } from "./diff-view";

interface ParentDiffProps {
  parent: Checkpoint | null;
  parentValues: CheckpointFormValues;
  values: CheckpointFormValues;
}

/** What saving changes against the parent's state, shown before saving. */
export function ParentDiff({ parent, parentValues, values }: ParentDiffProps) {
  const sections = useMemo(() => diffAgainstParent(parentValues, values), [parentValues, values]);
  const stats = diffStats(sections);
  const against = parent ? (
    <CheckpointName hash={parent.commit_hash} message={parent.message} />
  ) : (
    "an empty state"
  );
  return (
    <details className="parent-diff" open data-testid="parent-diff">
      <summary>
        Changes against {against}:{" "}
        {/* The signs are for the eye; a screen reader hears the words (−1 read "minus one"). */}
        <span aria-hidden="true">
          +{stats.added} −{stats.removed} ~{stats.changed}
        </span>
        <span className="visually-hidden">
          {stats.added} added, {stats.removed} removed, {stats.changed} changed
        </span>
      </summary>
      {sections.length === 0 ? (
        <p className="muted small">No changes to the state yet: it is the parent's, as it was.</p>
      ) : (
        <DiffSections sections={sections} testId="form-diff" />
      )}
    </details>
  );
}
