import type { SpaceEvent } from "@/api/models";
import { EventStreamParser } from "@/lib/event-stream";

/** One connection's answer: its status, and (when 200) the stream's text as it arrives. */
export interface Connection {
  status: number;
  body: ReadableStream<string> | null;
}

/** Opens the event stream after `lastEventId` (null: from the next new event). */
export type Connect = (lastEventId: string | null, signal: AbortSignal) => Promise<Connection>;

export interface LiveStreamHandlers {
  onEvent: (event: SpaceEvent) => void;
  /** What followed the last id seen is gone (410, or an id the server does not know): the
   * stream starts again from now, and whatever the app holds may be out of date. */
  onRestart: () => void;
  /** The server wants a token (401): the stream stops until it is started again. */
  onUnauthorized?: () => void;
}

/** 1 s, 2 s, 4 s … up to 30 s, each somewhat shortened at random so tabs do not return together. */
export function backoffMs(attempt: number): number {
  const ceiling = Math.min(30_000, 1000 * 2 ** attempt);
  return ceiling * (0.5 + Math.random() * 0.5);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const woken = () => {
      clearTimeout(timer);
      resolve();
    };
    // Removed when the timer fires: a tab that reconnects for days keeps no listener per wait.
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", woken);
      resolve();
    }, ms);
    signal.addEventListener("abort", woken, { once: true });
  });
}

/**
 * The event log as a live stream, kept open: each time the connection drops (or the server
 * stops) it connects again after a backoff, sending the last id it saw as Last-Event-ID, so the
 * server replays what happened meanwhile and nothing is missed or repeated (SYSTEM.md §14).
 */
export class LiveStream {
  /** The last event id seen: the stream's opening `id:` or its last event's. */
  lastEventId: string | null = null;
  private readonly controller = new AbortController();

  constructor(
    private readonly connect: Connect,
    private readonly handlers: LiveStreamHandlers,
    private readonly backoff: (attempt: number) => number = backoffMs,
  ) {}

  /** Runs until `stop`, or a 401. */
  async run(): Promise<void> {
    const { signal } = this.controller;
    let attempt = 0;
    while (!signal.aborted) {
      let connection: Connection | null = null;
      try {
        connection = await this.connect(this.lastEventId, signal);
      } catch {
        // The network: retried below.
      }
      if (connection?.status === 401) {
        this.handlers.onUnauthorized?.();
        return;
      }
      if (connection && this.lastEventId !== null && [400, 410].includes(connection.status)) {
        // Pruned (410) or from another database (400): start again from now.
        this.lastEventId = null;
        this.handlers.onRestart();
        continue;
      }
      if (connection?.status === 200 && connection.body) {
        if (await this.read(connection.body)) attempt = 0;
      }
      if (signal.aborted) return;
      await sleep(this.backoff(attempt), signal);
      attempt += 1;
    }
  }

  stop(): void {
    this.controller.abort();
  }

  /** One event to the handlers, its id kept at once: a connection that drops later in the same
   * chunk resumes after it, not before (which would hand it over twice). An event the app cannot
   * handle is skipped with a warning rather than taken for a drop, which would read it again
   * and again. */
  private deliver(data: string): void {
    try {
      const event = JSON.parse(data) as SpaceEvent;
      this.lastEventId = String(event.id);
      this.handlers.onEvent(event);
    } catch (error) {
      console.warn("live events: an event could not be applied", error);
    }
  }

  /** Reads one connection to its end; whether anything came (then the next wait is short). */
  private async read(body: ReadableStream<string>): Promise<boolean> {
    const parser = new EventStreamParser();
    const reader = body.getReader();
    let received = false;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return received;
        received = true;
        for (const { data } of parser.feed(value)) {
          this.deliver(data);
        }
        this.lastEventId = parser.lastEventId ?? this.lastEventId;
      }
    } catch {
      return received; // dropped: resumed from the last id
    } finally {
      reader.releaseLock();
    }
  }
}
