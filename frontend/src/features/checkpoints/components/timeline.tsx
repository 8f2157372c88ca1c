import { useMemo } from "react";
import type { Checkpoint, Line } from "@/api/models";
import { AuthorBadge } from "@/components/author-badge";
import { isProtected, LockIcon } from "@/features/lines";
import { formatDateTime, shortHash, timeAgo } from "@/lib/format";
import { type LaneEdge, layoutLanes } from "../lib/lanes";
import { authorshipOf } from "../lib/metadata";

const ROW = 64;
const LANE = 16;
const PAD = 12;
const x = (lane: number) => PAD + lane * LANE;
const y = (row: number) => row * ROW + ROW / 2;

interface TimelineProps {
  checkpoints: readonly Checkpoint[];
  lines: readonly Line[];
  headId: string | null;
  mountedId: string | null;
  selectedId: string | null;
  onSelect: (id: string) => void;
}

/**
 * The Checkpoint history as lanes, one per line (the default line leftmost), newest first; each
 * line's HEAD carries the line's name, the Space's HEAD and the mounted Checkpoint are marked.
 */
export function Timeline({
  checkpoints,
  lines,
  headId,
  mountedId,
  selectedId,
  onSelect,
}: TimelineProps) {
  const layout = useMemo(() => layoutLanes(checkpoints, lines), [checkpoints, lines]);
  const locked = new Set(lines.filter(isProtected).map((l) => l.name));
  const byId = useMemo(() => new Map(checkpoints.map((c) => [c.id, c])), [checkpoints]);
  const width = PAD * 2 + Math.max(0, layout.lanes.length - 1) * LANE;
  const height = layout.rows.length * ROW;

  return (
    <div className="timeline-wrap">
      <svg className="graph" width={width} height={height} aria-hidden="true">
        {layout.edges.map((edge) =>
          edge.merge ? (
            <path
              key={edge.key}
              d={mergePath(edge)}
              className={`merge-edge lane-${edge.toLane % 6}`}
            />
          ) : (
            <path key={edge.key} d={edgePath(edge)} className={`lane-${edge.fromLane % 6}`} />
          ),
        )}
        {layout.rows.map((row, i) => (
          <circle
            key={row.node.id}
            cx={x(row.lane)}
            cy={y(i)}
            r={row.heads.length > 0 ? 6 : 5}
            className={`dot lane-${row.lane % 6}${row.heads.length > 0 ? " head" : ""}`}
          />
        ))}
      </svg>
      <ol className="timeline" aria-label="Checkpoint history">
        {layout.rows.map((row) => {
          const c = row.node;
          const { author, claimed } = authorshipOf(c);
          const merged = c.merge_parent_id ? byId.get(c.merge_parent_id) : undefined;
          return (
            <li
              key={c.id}
              className={c.id === selectedId ? "timeline-row selected" : "timeline-row"}
              style={{ height: ROW, paddingLeft: width + 8 }}
              data-line={row.line ?? undefined}
            >
              <button
                type="button"
                className="timeline-item"
                onClick={() => onSelect(c.id)}
                aria-current={c.id === selectedId ? "true" : undefined}
              >
                <span className="timeline-title">
                  {c.id === headId && <span className="badge head">HEAD</span>}
                  {row.heads.map((name) => (
                    <span key={name} className="badge line" data-testid="line-head">
                      {name}
                      {locked.has(name) && <LockIcon />}
                    </span>
                  ))}
                  {c.id === mountedId && <span className="badge mounted">mounted</span>}
                  <span className="timeline-message">{c.message}</span>
                </span>
                <span className="timeline-meta">
                  <code>{shortHash(c.commit_hash)}</code>
                  {c.merge_parent_id && (
                    <span className="merge-of" data-testid="merge-of">
                      merged{" "}
                      {merged ? <code>{shortHash(merged.commit_hash)}</code> : "another line"}
                    </span>
                  )}
                  <span title={formatDateTime(c.created_at)}>{timeAgo(c.created_at)}</span>
                  {author && <AuthorBadge author={author} claimed={claimed} />}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** Out of the merge into the merged Checkpoint's lane at once, then down that lane to it. */
function mergePath(edge: LaneEdge): string {
  const [x1, y1, x2, y2] = [x(edge.fromLane), y(edge.fromRow), x(edge.toLane), y(edge.toRow)];
  if (x1 === x2) return `M${x1} ${y1} V ${y2}`;
  const bend = y1 + ROW / 2;
  return `M${x1} ${y1} C ${x1} ${y1 + ROW / 4}, ${x2} ${y1 + ROW / 4}, ${x2} ${bend} V ${y2}`;
}

/** Down the child's lane, then into the parent's lane on the parent's row. */
function edgePath(edge: LaneEdge): string {
  const [x1, y1, x2, y2] = [x(edge.fromLane), y(edge.fromRow), x(edge.toLane), y(edge.toRow)];
  if (x1 === x2) return `M${x1} ${y1} V ${y2}`;
  const bend = y2 - ROW / 2;
  return `M${x1} ${y1} V ${bend} C ${x1} ${y2 - ROW / 4}, ${x2} ${y2 - ROW / 4}, ${x2} ${y2}`;
}
