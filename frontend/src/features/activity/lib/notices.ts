import type { SpaceEvent } from "@/api/models";
import { describeEvent } from "./describe";

/** Who the app is: the person, or an agent key (GET /v5/me); undefined until known. */
export type Viewer = { kind: "person" } | { kind: "agent"; id: string } | undefined;

/** The viewer of GET /v5/me's answer (`id` is an agent key's). */
export function viewerOf(me: { kind: string; id?: string | null } | undefined): Viewer {
  if (!me) return undefined;
  return me.kind === "agent" && me.id ? { kind: "agent", id: me.id } : { kind: "person" };
}

/**
 * Whether an event is someone else's change, worth a notice: for the person, an agent's (the
 * person's own changes, from this tab or another, raise none); for an agent key, anyone's but
 * its own.
 */
export function isSomeoneElses(event: SpaceEvent, viewer: Viewer): boolean {
  if (viewer?.kind === "agent")
    return !(event.actor.kind === "agent" && event.actor.id === viewer.id);
  return event.actor.kind === "agent";
}

export interface Notice {
  id: number;
  text: string;
}

/** The most notices shown at once; older ones are counted, not kept. */
export const MAX_NOTICES = 3;

export interface Notices {
  shown: Notice[];
  /** How many older notices were folded away. */
  more: number;
}

export const NO_NOTICES: Notices = { shown: [], more: 0 };

/** The notices with one more event's on top: never more than MAX_NOTICES, the rest a count. */
export function withNotice(notices: Notices, event: SpaceEvent): Notices {
  const shown = [{ id: event.id, text: describeEvent(event) }, ...notices.shown];
  const folded = Math.max(0, shown.length - MAX_NOTICES);
  return { shown: shown.slice(0, MAX_NOTICES), more: notices.more + folded };
}

/** The notices without one; once none is shown, the folded count goes too. */
export function withoutNotice(notices: Notices, id: number): Notices {
  const shown = notices.shown.filter((notice) => notice.id !== id);
  return shown.length > 0 ? { shown, more: notices.more } : NO_NOTICES;
}
