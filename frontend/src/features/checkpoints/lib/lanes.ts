/**
 * Lays out a Space's Checkpoints as lanes, one per line (like `git log --graph`): a line owns
 * the Checkpoints on its first-parent history from its HEAD that no line before it owns, the
 * default line first, so the default line is the leftmost lane. Checkpoints no line reaches (a
 * deleted line's, an old fork's) get lanes of their own after the lines', reused once free.
 * Rows are the Checkpoints in the order given (newest first); an edge joins each Checkpoint to
 * its parent, drawn in the child's lane down to the parent's row. A merge has a second edge, to
 * the Checkpoint merged in (`merge_parent_id`), drawn the other way round: out of the merge into
 * the merged line's lane at once, then down that lane, as `git log --graph` draws it.
 */
export interface LaneNode {
  id: string;
  parent_commit_id: string | null;
  merge_parent_id?: string | null;
}

export interface LaneLine {
  name: string;
  head_commit_id: string | null;
  is_default: boolean;
}

export interface LaneRow<T extends LaneNode> {
  node: T;
  lane: number;
  /** The line owning this Checkpoint; null when no line reaches it. */
  line: string | null;
  /** The lines whose HEAD this Checkpoint is, default line first. */
  heads: string[];
}

export interface LaneEdge {
  key: string;
  fromRow: number;
  fromLane: number;
  toRow: number;
  toLane: number;
  /** The edge from a merge to the Checkpoint merged in (its second parent). */
  merge: boolean;
}

export interface LaneLayout<T extends LaneNode> {
  rows: LaneRow<T>[];
  edges: LaneEdge[];
  /** One entry per lane, left to right: the line it draws, or null for unowned Checkpoints. */
  lanes: (string | null)[];
}

/** Default line first, then in the order given (the API's: by name). */
export function orderLines<L extends LaneLine>(lines: readonly L[]): L[] {
  return [...lines.filter((l) => l.is_default), ...lines.filter((l) => !l.is_default)];
}

export function layoutLanes<T extends LaneNode>(
  newestFirst: readonly T[],
  lines: readonly LaneLine[],
): LaneLayout<T> {
  const byId = new Map(newestFirst.map((n) => [n.id, n]));
  const rowOf = new Map(newestFirst.map((n, i) => [n.id, i]));
  const laneOf = new Map<string, number>();
  const lineOf = new Map<string, string | null>();
  const lanes: (string | null)[] = [];
  const ordered = orderLines(lines);

  // A merge's edge runs down the lane of the Checkpoint merged in from the merge's row: that
  // lane is taken from there (the newest merge of each Checkpoint counts).
  const mergedFrom = new Map<string, number>();
  for (const [row, node] of newestFirst.entries()) {
    const merged = node.merge_parent_id;
    if (merged && byId.has(merged) && !mergedFrom.has(merged)) mergedFrom.set(merged, row);
  }

  // A chain: first parents from `start` until a Checkpoint already claimed.
  const chain = (start: string | null) => {
    const nodes: T[] = [];
    for (let id = start; id !== null; ) {
      const node = byId.get(id);
      if (!node || laneOf.has(id)) break;
      nodes.push(node);
      id = node.parent_commit_id;
    }
    return nodes;
  };
  const claim = (nodes: readonly T[], lane: number, line: string | null) => {
    for (const node of nodes) {
      laneOf.set(node.id, lane);
      lineOf.set(node.id, line);
    }
  };
  // Each line claims its first-parent history until it meets a Checkpoint already claimed.
  for (const line of ordered) {
    const nodes = chain(line.head_commit_id);
    if (nodes.length === 0) continue;
    claim(nodes, lanes.length, line.name);
    lanes.push(line.name);
  }

  // Unowned chains, newest tip first; a lane is reused once the rows it spans are past (from a
  // merge's row when a merge took one of the chain's Checkpoints in, to its oldest's parent).
  const lineLanes = lanes.length;
  const freeFrom: number[] = [];
  for (const [row, node] of newestFirst.entries()) {
    if (laneOf.has(node.id)) continue;
    const nodes = chain(node.id);
    const first = nodes.reduce((top, n) => Math.min(top, mergedFrom.get(n.id) ?? row), row);
    let lane = freeFrom.findIndex((free) => free <= first);
    if (lane === -1) {
      lane = freeFrom.length;
      freeFrom.push(0);
      lanes.push(null);
    }
    claim(nodes, lineLanes + lane, null);
    const oldest = nodes.at(-1);
    const parentRow = oldest?.parent_commit_id ? rowOf.get(oldest.parent_commit_id) : undefined;
    freeFrom[lane] = (parentRow ?? rowOf.get(oldest?.id ?? "") ?? row) + 1;
  }
  const headsOf = new Map<string, string[]>();
  for (const line of ordered) {
    if (line.head_commit_id === null) continue;
    headsOf.set(line.head_commit_id, [...(headsOf.get(line.head_commit_id) ?? []), line.name]);
  }
  const rows = newestFirst.map((node) => ({
    node,
    lane: laneOf.get(node.id) ?? 0,
    line: lineOf.get(node.id) ?? null,
    heads: headsOf.get(node.id) ?? [],
  }));
  const edges: LaneEdge[] = [];
  for (const [fromRow, row] of rows.entries()) {
    const parents = [
      { id: row.node.parent_commit_id, merge: false },
      { id: row.node.merge_parent_id ?? null, merge: true },
    ];
    for (const { id, merge } of parents) {
      const toRow = id === null ? undefined : rowOf.get(id);
      if (toRow === undefined) continue;
      edges.push({
        key: `${row.node.id}${merge ? ">>" : ">"}${id}`,
        fromRow,
        fromLane: row.lane,
        toRow,
        toLane: rows[toRow]?.lane ?? 0,
        merge,
      });
    }
  }
  return { rows, edges, lanes };
}
