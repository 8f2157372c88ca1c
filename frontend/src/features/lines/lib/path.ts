import { defaultPathSerializer, type PathSerializer } from "openapi-fetch";

/**
 * The path of one line's endpoints. A line name may hold `/` ("train/sintra") and the server
 * routes the rest of the path as the name, so each segment is encoded on its own; the client's
 * default would encode the `/` as well.
 */
export const linePathSerializer: PathSerializer = (pathname, params) => {
  const name = String(params.name ?? "")
    .split("/")
    .map(encodeURIComponent)
    .join("/");
  return defaultPathSerializer(pathname.replace("{name}", name), params);
};
