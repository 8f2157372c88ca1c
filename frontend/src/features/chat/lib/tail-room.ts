/**
 * The empty room kept below the newest exchange so that the message just sent can sit at the top
 * of the list, with its reply growing into the room below it: the reply arrives in view and
 * nothing on screen moves (no layout jump). The room shrinks as the reply grows and is 0 once the
 * exchange fills the viewport.
 *   viewport: the list's visible height; contentEnd: the bottom of the last row;
 *   tailStart: the top of the message just sent (null: no send in this list yet).
 */
export function tailRoom(viewport: number, contentEnd: number, tailStart: number | null): number {
  if (tailStart === null) return 0;
  return Math.max(0, Math.round(viewport - (contentEnd - tailStart)));
}
