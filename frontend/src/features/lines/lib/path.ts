import { defaultPathSerializer, type PathSerializer } from "openapi-fetch";

/**
 * The path of one line's endpoints. A line name may hold `/` ("train/sintra") and the server
 * routes the rest of the path as the name, so each segment is encoded on its own; the client's
 * default would encode the `/` as well.
 *
 * A segment that is empty, `.` or `..` cannot be sent as meant: the browser resolves dot
 * segments (spelled `%2E` too) before the request leaves, so a line named `..` would be the
 * Space's own URL, and the server ignores a trailing `/`. No line can be named so now (the server
 * refuses such names); one named before is refused here rather than sent to another route.
 */
export const linePathSerializer: PathSerializer = (pathname, params) => {
  const segments = String(params.name ?? "").split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
    throw new Error(
      `The line ${JSON.stringify(params.name)} cannot be reached by its address: rename it through the API or the CLI.`,
    );
  }
  const name = segments.map(encodeURIComponent).join("/");
  return defaultPathSerializer(pathname.replace("{name}", name), params);
};
