/**
 * Lays out a Space's Checkpoints as a tree (newest first, like `git log --graph`): each
 * Checkpoint gets a lane; a line runs from it down to its parent, so divergent lines (two
 * Checkpoints with the same parent) show side by side.
 */
export interface GraphNode {
  id: string;
  parent_commit_id: string | null;
}

export interface GraphRow<T extends GraphNode> {
  node: T;
  /** The lane of this Checkpoint's dot. */
  lane: number;
  /** Lanes entering the row from above, each waiting for the Checkpoint id it leads to. */
  above: (string | null)[];
  /** Lanes leaving the row downwards. */
  below: (string | null)[];
}

export interface GraphLayout<T extends GraphNode> {
  rows: GraphRow<T>[];
  lanes: number;
}

export function layoutGraph<T extends GraphNode>(newestFirst: readonly T[]): GraphLayout<T> {
  const present = new Set(newestFirst.map((n) => n.id));
  let lanes: (string | null)[] = [];
  let width = 1;
  const rows: GraphRow<T>[] = [];
  for (const node of newestFirst) {
    const above = lanes.slice();
    let lane = lanes.indexOf(node.id);
    if (lane === -1) {
      lane = lanes.indexOf(null);
      if (lane === -1) lane = lanes.length;
    }
    const below = lanes.map((id) => (id === node.id ? null : id));
    while (below.length <= lane) below.push(null);
    const parent = node.parent_commit_id;
    below[lane] = parent !== null && present.has(parent) ? parent : null;
    // Keep the lane count from growing with closed lanes at the end.
    while (below.length > 0 && below[below.length - 1] === null) below.pop();
    lanes = below;
    width = Math.max(width, above.length, lane + 1, below.length);
    rows.push({ node, lane, above, below });
  }
  return { rows, lanes: width };
}
