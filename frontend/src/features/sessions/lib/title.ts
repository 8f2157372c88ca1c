import type { Session } from "@/api/models";

const sameYear = new Intl.DateTimeFormat("en", {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
});
const otherYear = new Intl.DateTimeFormat("en", { dateStyle: "medium" });

/** "Dec 1, 6:04 PM" this year, "Dec 1, 2025" before: short enough for the sidebar. */
function shortDate(iso: string, now: Date): string {
  const date = new Date(iso);
  return date.getFullYear() === now.getFullYear() ? sameYear.format(date) : otherYear.format(date);
}

/**
 * A Session's name. A new one is untitled until its first message is stored: the server then
 * titles it with that message's first words (unless someone named it meanwhile). An untitled one
 * with Turns (older Sessions, or renamed to "") is named by its date.
 */
export function sessionTitle(
  session: Pick<Session, "title" | "created_at"> & Partial<Pick<Session, "turn_count">>,
  now: Date = new Date(),
): string {
  const title = session.title.trim();
  if (title) return title;
  return session.turn_count === 0
    ? "New Session"
    : `Untitled · ${shortDate(session.created_at, now)}`;
}

const FORK_SUFFIX = / \(fork from [0-9a-f]{7}\)$/;

/**
 * The title of a Session continued from another at a Checkpoint: the origin's name with the
 * Checkpoint it is based on, as the server names a fork ("Trip (fork from 1a2b3c4)"), but
 * naming only the last Checkpoint: a chain of mounts does not grow the name each time.
 */
export function forkTitle(originTitle: string, commitHash: string): string {
  let title = originTitle.trim();
  while (FORK_SUFFIX.test(title)) title = title.replace(FORK_SUFFIX, "");
  return `${title || "Session"} (fork from ${commitHash.slice(0, 7)})`;
}
