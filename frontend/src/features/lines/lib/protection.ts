import type { Line, LineUpdate } from "@/api/models";

/**
 * A line's `protected` flag (SYSTEM.md §13): agents can neither commit to, merge into, rename,
 * delete nor make (un)default a protected line; they open a proposal instead.
 */
export function isProtected(line: Line): boolean {
  return line.protected;
}

/** A change to a line, protecting it included (the person only; PATCH …/branches/{name}). */
export type LineChange = LineUpdate;

/** How a line reads in a chooser, where no icon fits: "main (default, protected)". */
export function lineOptionLabel(line: Line): string {
  const notes = [line.is_default ? "default" : null, isProtected(line) ? "protected" : null];
  const said = notes.filter((note) => note !== null);
  return said.length > 0 ? `${line.name} (${said.join(", ")})` : line.name;
}
