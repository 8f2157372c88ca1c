import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useSearch } from "wouter";
import type { Turn } from "@/api/models";
import { AuthorBadge } from "@/components/author-badge";
import { CopyButton } from "@/components/copy-button";
import { Markdown } from "@/components/markdown";
import { agentCreator } from "@/lib/author";
import { formatDateTime } from "@/lib/format";
import { isInContext, type Mount } from "../lib/history-base";
import { retriedSeqs, retryableExchange } from "../lib/retries";
import { tailRoom } from "../lib/tail-room";
import { Boundary, type MountedCheckpoint } from "./boundary";

export interface PendingSend {
  content: string;
  provider: string | null;
  model: string | null;
  /** The reply so far ("" until its first piece). */
  text: string;
  /** Waiting for the reply to begin, receiving it, or stopped by the person (shown until the
   * stored pair replaces it). */
  phase: "sending" | "receiving" | "stopped";
}

type Row =
  | {
      kind: "turn";
      key: string;
      turn: Turn;
      outside: boolean;
      /** Asked again by a later retry: kept in the history, out of the context. */
      retried: boolean;
      /** The reply of the exchange a retry can ask again (the last one, in context). */
      retryable: Turn | null;
    }
  | { kind: "boundary"; key: string }
  | { kind: "pending-user"; key: string; content: string; phase: PendingSend["phase"] }
  | {
      kind: "pending-reply";
      key: string;
      provider: string | null;
      model: string | null;
      text: string;
      phase: PendingSend["phase"];
    };

/**
 * The rows of the list: Turns, the boundary after Turn `historyBaseSeq`, and a send in flight.
 * `sentWith`: the boundary is the one the last message was sent with (history), not what the next
 * message gets, so no Turn is dimmed for it.
 */
export function buildRows(
  turns: readonly Turn[],
  mount: Mount | null,
  pending: PendingSend | null,
  sentWith = false,
): Row[] {
  const rows: Row[] = [];
  if (mount && mount.historyBaseSeq === 0) rows.push({ kind: "boundary", key: "boundary" });
  const retried = retriedSeqs(turns);
  const inContext = sentWith ? null : mount;
  const retryable = pending ? null : retryableExchange(turns, inContext);
  const lastTurn = turns.at(-1);
  let lastSeq = 0;
  for (const turn of turns) {
    rows.push({
      kind: "turn",
      key: `t${turn.sequence_number}`,
      turn,
      outside: !isInContext(turn, inContext),
      retried: retried.has(turn.sequence_number),
      retryable: turn === lastTurn ? retryable : null,
    });
    if (mount && turn.sequence_number === mount.historyBaseSeq)
      rows.push({ kind: "boundary", key: "boundary" });
    lastSeq = turn.sequence_number;
  }
  if (pending) {
    // Keyed by the sequence numbers the pair will get, so the real Turns take over the measured rows.
    rows.push({
      kind: "pending-user",
      key: `t${lastSeq + 1}`,
      content: pending.content,
      phase: pending.phase,
    });
    rows.push({
      kind: "pending-reply",
      key: `t${lastSeq + 2}`,
      provider: pending.provider,
      model: pending.model,
      text: pending.text,
      phase: pending.phase,
    });
  }
  return rows;
}

interface TurnListProps {
  turns: readonly Turn[];
  /** The boundary to draw: a based Session's (before Turn 1), or the last message's mount. */
  mount: Mount | null;
  /** The boundary is the one the last message was sent with: history, nothing dimmed. */
  sentWith?: boolean;
  mounted: MountedCheckpoint | null;
  pending: PendingSend | null;
  sessionId: string;
  /** Asks the last exchange again, given its message; null while that cannot be done (a send is on its way). */
  onRetry?: ((message: Turn) => void) | null;
  /** Shows what the model saw for a reply. */
  onShowContext?: ((reply: Turn) => void) | null;
}

/** The Turns of a Session, virtualised: only the rows on screen are in the DOM. */
export function TurnList({
  turns,
  mount,
  sentWith = false,
  mounted,
  pending,
  sessionId,
  onRetry = null,
  onShowContext = null,
}: TurnListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useMemo(
    () => buildRows(turns, mount, pending, sentWith),
    [turns, mount, pending, sentWith],
  );
  // The row of the message last sent from this list, kept at the top with room below (tailRoom).
  const [tailKey, setTailKey] = useState<string | null>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 120,
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 2,
  });
  // Computed in render from this render's measurements, so the canvas never shrinks under the
  // scroll position for a frame (the browser would clamp it, and the sent message would move).
  const total = virtualizer.getTotalSize();
  const measurements = virtualizer.measurementsCache;
  const tailIndex = tailKey === null ? -1 : measurements.findLastIndex((m) => m.key === tailKey);
  const room = tailRoom(
    virtualizer.scrollRect?.height ?? 0,
    total,
    measurements[tailIndex]?.start ?? null,
  );

  // Open a Session at its end, or at the Turn a link names (`?turn=N`, from a search result).
  const lastIndex = rows.length - 1;
  const wanted = Number(new URLSearchParams(useSearch()).get("turn") ?? Number.NaN);
  const wantedIndex = rows.findIndex(
    (row) => row.kind === "turn" && row.turn.sequence_number === wanted,
  );
  const opened = useRef<string | null>(null);
  useLayoutEffect(() => {
    const target = wantedIndex >= 0 ? `${sessionId}#${wanted}` : sessionId;
    if (lastIndex < 0 || opened.current === target) return;
    opened.current = target;
    if (wantedIndex >= 0) virtualizer.scrollToIndex(wantedIndex, { align: "center" });
    else virtualizer.scrollToIndex(lastIndex, { align: "end" });
  }, [sessionId, lastIndex, wanted, wantedIndex, virtualizer]);

  // A send puts the message at the top, its reply below it in view. The reply then grows into the
  // room kept for it, so nothing moves when it arrives; whoever scrolled up to read meanwhile
  // stays where they are (the list never scrolls on a reply). A send in flight is the last two rows.
  const sent = rows.at(-2);
  const sentKey = sent?.kind === "pending-user" ? sent.key : null;
  const scrollToTail = useRef(false);
  useLayoutEffect(() => {
    if (sentKey === null) return;
    setTailKey(sentKey);
    scrollToTail.current = true;
  }, [sentKey]);
  useLayoutEffect(() => {
    if (!scrollToTail.current || tailIndex < 0) return;
    scrollToTail.current = false;
    virtualizer.scrollToIndex(tailIndex, { align: "start" });
  }, [tailIndex, virtualizer]);

  useEffect(() => {
    if (turns.length > 0) {
      requestAnimationFrame(() =>
        performance.mark("smriti:turn-list-rendered", { detail: { turns: turns.length } }),
      );
    }
  }, [turns.length]);

  const items = virtualizer.getVirtualItems();
  return (
    <div className="turn-scroller" ref={scroller} data-testid="turn-list">
      <div className="turn-canvas" style={{ height: total + room }}>
        <div
          className="turn-window"
          style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}
          role="feed"
          aria-label="Turns"
          aria-busy={pending !== null}
        >
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="turn-row"
              >
                <RowView
                  row={row}
                  found={row.kind === "turn" && row.turn.sequence_number === wanted}
                  mounted={mounted}
                  mount={mount}
                  sentWith={sentWith}
                  onRetry={onRetry}
                  onShowContext={onShowContext}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function RowView({
  row,
  found,
  mounted,
  mount,
  sentWith,
  onRetry,
  onShowContext,
}: {
  row: Row;
  /** The Turn a link opened the Session at. */
  found: boolean;
  mounted: MountedCheckpoint | null;
  mount: Mount | null;
  sentWith: boolean;
  onRetry: ((message: Turn) => void) | null;
  onShowContext: ((reply: Turn) => void) | null;
}) {
  switch (row.kind) {
    case "turn":
      return (
        <TurnView
          turn={row.turn}
          outside={row.outside}
          retried={row.retried}
          retryable={row.retryable}
          found={found}
          onRetry={onRetry}
          onShowContext={onShowContext}
        />
      );
    case "boundary":
      return <Boundary mounted={mounted} base={mount?.historyBaseSeq ?? 0} sentWith={sentWith} />;
    case "pending-user":
      return (
        <article className="turn user pending" aria-busy={row.phase === "sending"}>
          <header className="turn-head">
            <span className="turn-role">You</span>
            <span className="turn-meta">{row.phase === "sending" ? "sending…" : "sent"}</span>
          </header>
          <Markdown source={row.content} className="turn-body" />
        </article>
      );
    case "pending-reply":
      return (
        <article
          className="turn assistant pending"
          aria-busy={row.phase !== "stopped"}
          data-testid="pending-reply"
        >
          <header className="turn-head">
            <span className="turn-role">Assistant</span>
            {row.provider && (
              <span className="turn-model">
                {row.provider} · {row.model}
              </span>
            )}
            {row.phase === "stopped" && <StoppedBadge />}
          </header>
          {row.text ? (
            // Re-rendered as it grows; code is highlighted once the stored reply replaces it.
            <Markdown source={row.text} className="turn-body" streaming />
          ) : (
            <div className="turn-body typing">
              <span aria-hidden="true" />
              <span aria-hidden="true" />
              <span aria-hidden="true" />
              <span className="visually-hidden">Waiting for the reply</span>
            </div>
          )}
        </article>
      );
  }
}

function StoppedBadge() {
  return (
    <span
      className="badge muted-badge"
      title="Stopped before the reply was complete: this is what had arrived"
    >
      stopped
    </span>
  );
}

interface TurnViewProps {
  turn: Turn;
  outside: boolean;
  retried: boolean;
  /** The message of the exchange that ends with this reply, when it can be asked again. */
  retryable: Turn | null;
  found: boolean;
  onRetry: ((message: Turn) => void) | null;
  onShowContext: ((reply: Turn) => void) | null;
}

const TurnView = memo(function TurnView({
  turn,
  outside,
  retried,
  retryable,
  found,
  onRetry,
  onShowContext,
}: TurnViewProps) {
  const roleClass = turn.role === "user" ? "user" : "assistant";
  // A message an agent sent (with its key) is the agent's, not "You".
  const agent = turn.role === "user" ? agentCreator(turn) : null;
  const notSent = outside || retried;
  return (
    <article
      className={`turn ${roleClass}${notSent ? " outside" : ""}${found ? " found" : ""}`}
      data-seq={turn.sequence_number}
      data-testid="turn"
      aria-label={`Turn ${turn.sequence_number}${
        outside ? ", outside the context" : retried ? ", retried: not in the context" : ""
      }`}
    >
      <header className="turn-head">
        <span className="turn-role">
          {agent ? <AuthorBadge author={agent} /> : turn.role === "user" ? "You" : "Assistant"}
        </span>
        {turn.provider && (
          <span className="turn-model" title="Provider and model this Turn was sent with">
            {turn.model ? `${turn.provider} · ${turn.model}` : turn.provider}
          </span>
        )}
        {outside && <span className="badge muted-badge">outside the context</span>}
        {retried && !outside && (
          <span
            className="badge muted-badge"
            title="Asked again below: kept in the history, not sent to the model"
          >
            retried
          </span>
        )}
        {turn.stopped && <StoppedBadge />}
        {turn.at_limit && (
          <span
            className="badge muted-badge"
            title="The provider ended this reply at its length limit (SMRITI_MAX_REPLY_TOKENS): it may stop mid-answer"
          >
            cut at the reply limit
          </span>
        )}
        {turn.retry_of != null && (
          <span className="badge muted-badge" title={`Asks Turn ${turn.retry_of} again`}>
            retry of #{turn.retry_of}
          </span>
        )}
        <span className="turn-meta" title={formatDateTime(turn.created_at)}>
          #{turn.sequence_number}
        </span>
        <CopyButton
          text={() => turn.content}
          label={`Copy message ${turn.sequence_number}`}
          className="turn-action"
        />
        {turn.role === "assistant" && onShowContext && (
          <button
            type="button"
            className="turn-action"
            onClick={() => onShowContext(turn)}
            aria-label={`What the model saw for reply ${turn.sequence_number}`}
            title="The context this reply was answered from, rebuilt and checked against its receipt"
          >
            Context
          </button>
        )}
        {retryable && (
          <button
            type="button"
            className="turn-action"
            disabled={onRetry === null}
            onClick={() => onRetry?.(retryable)}
            aria-label={`Retry: ask Turn ${retryable.sequence_number} again`}
            title="Ask the same message again with the same context; this exchange stays in the history"
          >
            Retry
          </button>
        )}
      </header>
      <Markdown source={turn.content} className="turn-body" />
    </article>
  );
});
