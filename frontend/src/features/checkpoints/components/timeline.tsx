import { useMemo } from "react";
import type { Checkpoint } from "@/api/models";
import { formatDateTime, shortHash, timeAgo } from "@/lib/format";
import { layoutGraph } from "../lib/graph";
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
          <li key={c.id} className={c.id === selectedId ? "timeline-row selected" : "timeline-row"} style={{ height: ROW }}>
            <svg className="graph" width={width} height={ROW} aria-hidden="true">
              {row.above.map((id, lane) =>
                id === null ? null : id === c.id ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lanes are positions.
                  <path key={`a${lane}`} d={`M${x(lane)} 0 C ${x(lane)} ${mid / 2}, ${x(row.lane)} ${mid / 2}, ${x(row.lane)} ${mid}`} />
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lanes are positions.
                  <line key={`a${lane}`} x1={x(lane)} y1={0} x2={x(lane)} y2={mid} />
                ),
              )}
              {row.below.map((id, lane) =>
                id === null ? null : lane === row.lane ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lanes are positions.
                  <line key={`b${lane}`} x1={x(lane)} y1={mid} x2={x(lane)} y2={ROW} />
                ) : row.above[lane] === id ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lanes are positions.
                  <line key={`b${lane}`} x1={x(lane)} y1={mid} x2={x(lane)} y2={ROW} />
                ) : null,
              )}
              <circle cx={x(row.lane)} cy={mid} r={isHead ? 6 : 5} className={isHead ? "dot head" : "dot"} />
            </svg>
            <button type="button" className="timeline-item" onClick={() => onSelect(c.id)} aria-current={c.id === selectedId ? "true" : undefined}>
              <span className="timeline-title">
                {isHead && <span className="badge head">HEAD</span>}
                {c.id === mountedId && <span className="badge mounted">mounted</span>}
                <span className="timeline-message">{c.message}</span>
              </span>
              <span className="timeline-meta">
                <code>{shortHash(c.commit_hash)}</code>
                <span title={formatDateTime(c.created_at)}>{timeAgo(c.created_at)}</span>
                {author && <span>{author.kind === "agent" ? `agent ${author.name}` : author.name}</span>}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
