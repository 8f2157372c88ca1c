import type { LeftOut } from "@/api/models";
import { plural } from "@/lib/format";

/** The numbers named before "and N more": a long Session can leave out thousands. */
const SHOWN = 12;

/**
 * Which Turns in scope the provider is not sent, and why: the offline provider's replies, which
 * no model wrote, go to no other provider. The messages listed beside it are what is sent.
 */
export function LeftOutNote({ leftOut }: { leftOut: LeftOut | null | undefined }) {
  const seqs = leftOut?.sequence_numbers ?? [];
  if (!leftOut || seqs.length === 0) return null;
  const named = seqs.slice(0, SHOWN).map((seq) => `#${seq}`);
  const more = seqs.length > SHOWN ? ` and ${(seqs.length - SHOWN).toLocaleString("en")} more` : "";
  return (
    <p className="muted small" data-testid="context-left-out">
      {plural(seqs.length, "Turn")} not sent ({named.join(", ")}
      {more}). {leftOut.reason}
    </p>
  );
}
