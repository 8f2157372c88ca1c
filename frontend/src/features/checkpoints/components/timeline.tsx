import { useMemo } from "react";
import type { Checkpoint } from "@/api/models";
import { formatDateTime, shortHash, timeAgo } from "@/lib/format";
import { type GraphNode, type GraphRow, layoutGraph } from "../lib/graph";
import { authorOf } from "../lib/metadata";

const ROW = 64;
const LANE = 16;
const PAD = 12;

interface TimelineProps {
  checkpoints: readonly Checkpoint[];
  headId: string | null;
  mountedId: string | null;
  selectedId: string | null;
  onSelect: (id: string) => void;
}

/** The Checkpoint history as a tree, newest first; HEAD and the mounted Checkpoint are marked. */
export function Timeline({ checkpoints, headId, mountedId, selectedId, onSelect }: TimelineProps) {
  const layout = useMemo(() => layoutGraph(checkpoints), [checkpoints]);
  const width = PAD * 2 + (layout.lanes - 1) * LANE;
  const x = (lane: number) => PAD + lane * LANE;
  const mid = ROW / 2;

  return (
    <ol className="timeline" aria-label="Checkpoint history">
      {layout.rows.map((row) => {
        const c = row.node;
        const author = authorOf(c);
        const isHead = c.id === headId;
        return (
          <li
            key={c.id}
            className={c.id === selectedId ? "timeline-row selected" : "timeline-row"}
            style={{ height: ROW }}
          >
            <svg className="graph" width={width} height={ROW} aria-hidden="true">
              {segments(row, x, mid).map((seg) => (
                <path key={seg.key} d={seg.d} />
              ))}
              <circle
                cx={x(row.lane)}
                cy={mid}
                r={isHead ? 6 : 5}
                className={isHead ? "dot head" : "dot"}
              />
            </svg>
            <button
              type="button"
              className="timeline-item"
              onClick={() => onSelect(c.id)}
              aria-current={c.id === selectedId ? "true" : undefined}
            >
              <span className="timeline-title">
                {isHead && <span className="badge head">HEAD</span>}
                {c.id === mountedId && <span className="badge mounted">mounted</span>}
                <span className="timeline-message">{c.message}</span>
              </span>
              <span className="timeline-meta">
                <code>{shortHash(c.commit_hash)}</code>
                <span title={formatDateTime(c.created_at)}>{timeAgo(c.created_at)}</span>
                {author && (
                  <span>{author.kind === "agent" ? `agent ${author.name}` : author.name}</span>
                )}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/** The lines of one row: lanes passing through, lanes converging on the dot, the line to the parent. */
function segments<T extends GraphNode>(row: GraphRow<T>, x: (lane: number) => number, mid: number) {
  const out: { key: string; d: string }[] = [];
  for (let lane = 0; lane < row.above.length; lane += 1) {
    const id = row.above[lane];
    if (id == null) continue;
    if (id === row.node.id) {
      out.push({
        key: `in-${lane}`,
        d: `M${x(lane)} 0 C ${x(lane)} ${mid / 2}, ${x(row.lane)} ${mid / 2}, ${x(row.lane)} ${mid}`,
      });
    } else {
      out.push({ key: `pass-${lane}`, d: `M${x(lane)} 0 V ${mid * 2}` });
    }
  }
  if (row.below[row.lane] != null)
    out.push({ key: "out", d: `M${x(row.lane)} ${mid} V ${mid * 2}` });
  return out;
}
