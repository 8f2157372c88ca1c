export { useCreateSession } from "./api/create-session";
export { useForkSession } from "./api/fork-session";
export { useSession } from "./api/get-session";
export { useSessions } from "./api/list-sessions";
export { mergeTurns, TURN_PAGE, turnsQuery, useTurns } from "./api/list-turns";
export { SessionOrigin } from "./components/session-origin";
export { SessionSidebar, sessionTitle } from "./components/session-sidebar";
