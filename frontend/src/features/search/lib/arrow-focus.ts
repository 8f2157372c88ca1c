/** Where Up and Down move the focus among `count` results, from `current` (-1: the search box).
 * Down stops at the last result; Up from the first goes back to the box. `null`: not a move. */
export function nextFocus(current: number, count: number, key: string): number | null {
  if (key === "ArrowDown") return count === 0 ? null : Math.min(current + 1, count - 1);
  if (key === "ArrowUp") return current <= 0 ? -1 : current - 1;
  return null;
}
