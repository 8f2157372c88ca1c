/** The API path of one line: its name may hold `/`, so each segment is encoded on its own. */
export function linePath(spaceId: string, name: string): string {
  const encoded = name.split("/").map(encodeURIComponent).join("/");
  return `/v4/repos/${encodeURIComponent(spaceId)}/branches/${encoded}`;
}
