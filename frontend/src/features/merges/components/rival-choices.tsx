import { plural } from "@/lib/format";
import type { MergePreview, RivalChoice } from "../types";

/** What each kind of rival choice means, in a person's words. */
const KIND_LABELS: Record<RivalChoice["kind"], string> = {
  negation: "one says not to",
  ruled_out: "one rules out the other",
  same_slot: "two values for one choice",
};

/**
 * Rival choices the merge brings together (issue 44): each line changed a decision differently,
 * the item rules keep both, and no conflict says so. Shown before saving, next to the status that
 * would otherwise say the merge is clean.
 */
export function RivalChoices({
  preview,
  ours,
  theirs,
}: {
  preview: MergePreview;
  ours: string;
  theirs: string;
}) {
  const { rivals, merged } = preview;
  if (rivals.length === 0) return null;
  const text = (rival: RivalChoice, at: number) => {
    const ref = rival.refs[at];
    const items = ref ? (merged[ref.field as "decisions" | "assumptions"] ?? []) : [];
    return ref ? (items[ref.index] ?? "") : "";
  };
  return (
    <section
      className="conflict merge-rivals"
      role="alert"
      aria-label="Rival choices"
      data-testid="merge-rivals"
    >
      <strong>
        {plural(rivals.length, "pair")} of rival choices: {ours} and {theirs} decided differently.
      </strong>{" "}
      Neither line changed what the other did, so this is no conflict and the merge keeps both.
      Settle each on a line before merging, or keep one after saving.
      <ul className="merge-rival-list">
        {rivals.map((rival) => (
          <li key={rival.refs.map((r) => `${r.field}:${r.index}`).join("|")} title={rival.detail}>
            “{text(rival, 0)}” and “{text(rival, 1)}”{" "}
            <span className="muted small">({KIND_LABELS[rival.kind]})</span>
          </li>
        ))}
      </ul>
      {preview.limits?.map((limit) => (
        <p key={limit} className="muted small">
          {limit}
        </p>
      ))}
    </section>
  );
}
