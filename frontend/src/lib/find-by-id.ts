/** The item with this id, or null (also for a missing id): lists here are small and unindexed. */
export function findById<T extends { id: string }>(
  items: readonly T[],
  id: string | null | undefined,
): T | null {
  if (id == null) return null;
  return items.find((item) => item.id === id) ?? null;
}
