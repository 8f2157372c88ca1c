import { useState } from "react";
import { Link } from "wouter";
import { useIsPerson } from "@/api/me";
import type { SpaceEvent } from "@/api/models";
import { EmptyState, FailureNotice, Loading } from "@/components/feedback";
import { useAgents } from "@/features/agents";
import { formatDateTime, timeAgo } from "@/lib/format";
import { type EventFilters, useSpaceEvents } from "../api/list-events";
import { describeEvent, EVENT_TYPES } from "../lib/describe";

/** Where an event's subject lives in the app, when it still does. */
function eventLink(event: SpaceEvent): string | null {
  const space = `/spaces/${event.repo_id}`;
  const data = event.data;
  if (event.type === "checkpoint.created" && typeof data.commit_id === "string")
    return `${space}?checkpoint=${data.commit_id}`;
  if (event.type.startsWith("proposal.") && typeof data.number === "number")
    return `${space}/proposals/${data.number}`;
  if (event.type !== "session.deleted" && typeof data.session_id === "string")
    return `${space}/sessions/${data.session_id}`;
  if (event.type.startsWith("line.") && event.type !== "line.deleted") return space;
  return null;
}

/** The agents to filter by: the person's list of keys, and any other agent seen on the page. */
function useActorChoices(events: SpaceEvent[]): [string, string][] {
  const person = useIsPerson();
  const agents = useAgents();
  const choices = new Map<string, string>();
  for (const agent of person ? (agents.data ?? []) : []) choices.set(agent.id, agent.name);
  for (const { actor } of events) if (actor.id) choices.set(actor.id, actor.name);
  return [...choices.entries()];
}

/** A Space's activity: its events, newest first, by actor and type; new ones arrive on top (the
 * live stream refreshes `keys.events`). The default export: the route loads it lazily. */
export default function ActivityPage({ spaceId }: { spaceId: string }) {
  const [filters, setFilters] = useState<EventFilters>({ actor: "", type: "" });
  const pages = useSpaceEvents(spaceId, filters);
  const events = pages.data?.pages.flatMap((page) => page.items) ?? [];
  const agents = useActorChoices(events);

  return (
    <section className="activity page" aria-labelledby="activity-title">
      <h1 id="activity-title">Activity</h1>
      <div className="activity-filters">
        <label className="field">
          <span>Who</span>
          <select
            value={filters.actor}
            onChange={(e) => setFilters({ ...filters, actor: e.target.value })}
          >
            <option value="">Anyone</option>
            <option value="human">The person</option>
            {agents.map(([id, name]) => (
              <option key={id} value={id}>
                agent {name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>What</span>
          <select
            value={filters.type}
            onChange={(e) => setFilters({ ...filters, type: e.target.value })}
          >
            <option value="">Any change</option>
            {EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
      </div>
      {pages.isPending && <Loading what="activity" />}
      {pages.isError && <FailureNotice error={pages.error} />}
      {pages.isSuccess && events.length === 0 && (
        <EmptyState title="Nothing yet">
          <p className="muted">No change matches; new ones appear here as they happen.</p>
        </EmptyState>
      )}
      <ol className="activity-list" data-testid="activity-list">
        {events.map((event) => {
          const link = eventLink(event);
          const sentence = describeEvent(event);
          return (
            <li key={event.id} className="activity-row" data-testid="activity-row">
              <time dateTime={event.at} title={formatDateTime(event.at)} className="muted">
                {timeAgo(event.at)}
              </time>
              {link ? <Link href={link}>{sentence}</Link> : <span>{sentence}</span>}
            </li>
          );
        })}
      </ol>
      {pages.hasNextPage && (
        <button
          type="button"
          className="btn"
          disabled={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage()}
        >
          {pages.isFetchingNextPage ? "Loading…" : "Older"}
        </button>
      )}
    </section>
  );
}
