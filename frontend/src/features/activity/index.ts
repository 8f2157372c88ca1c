import { lazy } from "react";

export { LiveEvents } from "./components/live-events";

/** A Space's activity view, in a chunk of its own: loaded when the route is first opened. */
export const ActivityPage = lazy(() => import("./components/activity-page"));
