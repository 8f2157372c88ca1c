/** Query keys, shared so that one feature's mutation can refresh another feature's data. */
export const keys = {
  spaces: () => ["spaces"] as const,
  space: (spaceId: string) => ["space", spaceId] as const,
  sessions: (spaceId: string) => ["sessions", spaceId] as const,
  session: (sessionId: string) => ["session", sessionId] as const,
  turns: (sessionId: string) => ["turns", sessionId] as const,
  checkpoints: (spaceId: string) => ["checkpoints", spaceId] as const,
  checkpoint: (ref: string) => ["checkpoint", ref] as const,
  lines: (spaceId: string) => ["lines", spaceId] as const,
  providers: () => ["providers"] as const,
  context: (sessionId: string) => ["context", sessionId] as const,
  review: (checkpointId: string) => ["review", checkpointId] as const,
  diff: (fromRef: string, toRef: string) => ["diff", fromRef, toRef] as const,
  agents: () => ["agents"] as const,
  me: () => ["me"] as const,
  /** Every proposal query of a Space (lists and pages) starts with this, so one call refreshes all. */
  proposals: (spaceId: string) => ["proposals", spaceId] as const,
  proposalList: (spaceId: string, status: string) =>
    ["proposals", spaceId, "list", status] as const,
  proposal: (spaceId: string, number: number) => ["proposals", spaceId, "one", number] as const,
  /** Every activity view of a Space (each filter) starts with this. */
  events: (spaceId: string) => ["events", spaceId] as const,
  eventPages: (spaceId: string, actor: string, type: string) =>
    ["events", spaceId, actor, type] as const,
  search: (query: string, spaceId: string | null) => ["search", query, spaceId] as const,
};
