import { isRecord } from "./is-record";

/**
 * Who made something: the person, or a named agent (SYSTEM.md §13). The server vouches for an
 * agent by its key: it sets `metadata.author` on an agent's Checkpoints, and `created_by` on
 * lines, Sessions, Turns and proposals, with the key's `id`. An author without an `id` is what a
 * client said (the person's writes keep the author the client sends, as before keys).
 */
export interface Author {
  kind: "person" | "agent";
  /** The agent key's id: present when the server set it, so the name is the key's, not a claim. */
  id: string | null;
  /** The agent's name, or the name the person typed; null for the person unnamed. */
  name: string | null;
}

/** `created_by` or `metadata.author`, read defensively: anything but an agent is the person. */
export function readAuthor(value: unknown): Author | null {
  if (!isRecord(value)) return null;
  const name = typeof value.name === "string" && value.name.trim() ? value.name : null;
  const id = typeof value.id === "string" ? value.id : null;
  // The wire says "human" (the web app's Checkpoints, events) or "person" (created_by).
  if (value.kind === "agent") return { kind: "agent", id, name };
  return { kind: "person", id: null, name };
}

/** A Checkpoint's author, and the author its client claimed when the server put another there. */
export interface Authorship {
  author: Author | null;
  /** Shown only when it differs from `author`: the client's `author`, kept by the server. */
  claimed: Author | null;
}

export function checkpointAuthorship(metadata: Record<string, unknown>): Authorship {
  const author = readAuthor(metadata.author);
  const claimed = readAuthor(metadata.claimed_author);
  return { author, claimed: claimed && !sameAuthor(author, claimed) ? claimed : null };
}

function sameAuthor(a: Author | null, b: Author): boolean {
  return a !== null && a.kind === b.kind && a.name === b.name;
}

/** How an author reads in a list: "agent coder", "Ana", "you" (the person unnamed). */
export function authorLabel(author: Author): string {
  if (author.kind === "agent") return `agent ${author.name ?? "(unnamed)"}`;
  return author.name ?? "you";
}

/** What hovering an author says: whether the server vouches for the name. */
export function authorNote(author: Author): string {
  if (author.kind === "person") return "Made by the person running Smriti";
  return author.id
    ? `Made with the agent key “${author.name ?? ""}” (the server vouches for the name)`
    : "Marked as an agent's by the client that saved it (not made with an agent key)";
}

/**
 * The agent that made a line, Session, Turn or proposal (its `created_by`), or null when the
 * person made it. Read through a narrow type of its own: until the generated types carry
 * `created_by` (another part of issue 45 adds it), an answer without it is the person's, as it was
 * before agents had keys; lists mark only agents, since in a one-person app "you" on every row
 * says nothing.
 */
export function agentCreator(thing: object): Author | null {
  const author = readAuthor((thing as { created_by?: unknown }).created_by);
  return author?.kind === "agent" ? author : null;
}
