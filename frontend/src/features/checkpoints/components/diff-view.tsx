import type { CheckpointDiff } from "@/api/v5";
import { type DiffSection, diffSections, diffStats } from "../lib/diff";

const signLabel = { "+": "added", "-": "removed", "~": "changed" } as const;

/** A Checkpoint diff, field by field: removed, added and changed items. */
export function DiffView({ diff }: { diff: CheckpointDiff }) {
  if (diff.identical) {
    return (
      <p className="diff-identical" data-testid="diff-identical">
        These Checkpoints hold identical state.
      </p>
    );
  }
  return <DiffSections sections={diffSections(diff)} testId="diff" />;
}

/** Diff sections with their "+n −n ~n" counts (also used for the Save form's changes). */
export function DiffSections({
  sections,
  testId,
}: {
  sections: readonly DiffSection[];
  testId: string;
}) {
  const stats = diffStats(sections);
  return (
    <div className="diff" data-testid={testId}>
      <p className="diff-stats">
        <span className="plus">+{stats.added} added</span>{" "}
        <span className="minus">−{stats.removed} removed</span>{" "}
        <span className="tilde">~{stats.changed} changed</span>
      </p>
      {sections.map((section) => (
        <section key={section.field} className="diff-section" aria-label={section.title}>
          <h4>{section.title}</h4>
          <ul>
            {section.lines.map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static rendering of an immutable diff.
              <li key={i} className={`diff-line ${signLabel[line.sign]}`}>
                <span className="diff-sign" aria-hidden="true">
                  {line.sign === "-" ? "−" : line.sign}
                </span>
                <span className="visually-hidden">{signLabel[line.sign]}: </span>
                <span className="diff-text">{line.text}</span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
