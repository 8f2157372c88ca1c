/** A snippet cut into plain and matched pieces. The server's offsets count Unicode code points,
 * which is not how JavaScript indexes strings (UTF-16), so the text is split by code point. */
export function highlightPieces(
  snippet: string,
  highlights: readonly (readonly number[])[],
): { text: string; match: boolean }[] {
  const points = Array.from(snippet);
  const pieces: { text: string; match: boolean }[] = [];
  let at = 0;
  for (const [start = 0, end = 0] of highlights) {
    if (start < at || end <= start || end > points.length) continue;
    if (start > at) pieces.push({ text: points.slice(at, start).join(""), match: false });
    pieces.push({ text: points.slice(start, end).join(""), match: true });
    at = end;
  }
  if (at < points.length) pieces.push({ text: points.slice(at).join(""), match: false });
  return pieces;
}
