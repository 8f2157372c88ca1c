import type { SpaceEvent } from "@/api/models";

/** The longest a quoted name or message gets in a sentence: a notice is one short line. */
const QUOTE_MAX = 60;

/** Who made a change, as a sentence starts: "agent planner", or "the person". */
export function actorLabel(actor: SpaceEvent["actor"]): string {
  return actor.kind === "agent" ? `agent ${actor.name}` : "the person";
}

function text(data: Record<string, unknown>, field: string): string {
  const value = data[field];
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

function quoted(value: string): string {
  const line = value.split("\n", 1)[0]?.trim() ?? "";
  return `'${line.length > QUOTE_MAX ? `${line.slice(0, QUOTE_MAX - 1)}…` : line}'`;
}

function lineChange(data: Record<string, unknown>): string {
  const name = text(data, "name");
  if (data.old_name) return `renamed line ${text(data, "old_name")} to ${name}`;
  if (data.is_default === true) return `made line ${name} the default`;
  if (data.protected === true) return `protected line ${name}`;
  if (data.protected === false) return `unprotected line ${name}`;
  return `updated line ${name}`;
}

function turnsAdded(data: Record<string, unknown>): string {
  const count = Number(data.to_seq) - Number(data.from_seq) + 1;
  const turns = Number.isFinite(count) && count > 1 ? `${count} Turns` : "a Turn";
  return `added ${turns} to a Session${data.stopped === true ? " (stopped)" : ""}`;
}

const VERBS: Record<string, (data: Record<string, unknown>) => string> = {
  "space.created": (d) => `created Space ${quoted(text(d, "name"))}`,
  "space.updated": (d) => `updated Space ${quoted(text(d, "name"))}`,
  "space.deleted": (d) => `deleted Space ${quoted(text(d, "name"))}`,
  "space.imported": (d) => `imported Space ${quoted(text(d, "name"))}`,
  "checkpoint.created": (d) =>
    `saved ${quoted(text(d, "message"))}${d.branch ? ` on line ${text(d, "branch")}` : ""}`,
  "line.created": (d) => `made line ${text(d, "name")}`,
  "line.updated": lineChange,
  "line.deleted": (d) => `deleted line ${text(d, "name")}`,
  "session.created": (d) => (d.forked_from ? "forked a Session" : "started a Session"),
  "session.deleted": () => "deleted a Session",
  "turns.added": turnsAdded,
  "proposal.opened": (d) => `opened ${proposal(d)}`,
  "proposal.updated": (d) => `updated ${proposal(d)}`,
  "proposal.merged": (d) => `merged ${proposal(d)}`,
  "proposal.closed": (d) => `closed ${proposal(d)}`,
};

function proposal(data: Record<string, unknown>): string {
  return `proposal #${text(data, "number")} ${text(data, "from")} → ${text(data, "into")}`;
}

/**
 * One sentence for an event, the same in a notice and in the activity view (SYSTEM.md §14's
 * types): "agent planner saved 'Pick Baixa' on line planner". A type this app does not know yet
 * still says who changed something.
 */
export function describeEvent(event: Pick<SpaceEvent, "type" | "actor" | "data">): string {
  const verb = VERBS[event.type];
  const what = verb ? verb(event.data) : `made a change (${event.type})`;
  return `${actorLabel(event.actor)} ${what}`;
}

/** The event types, in the order §14 lists them: the activity view's type filter. */
export const EVENT_TYPES = Object.keys(VERBS);
