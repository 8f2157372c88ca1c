export { useCreateSession } from "./api/create-session";
export { useForkSession } from "./api/fork-session";
export { useSession } from "./api/get-session";
export { useSessions } from "./api/list-sessions";
export { mergeTurns, TURN_PAGE, turnsQuery, useTurns } from "./api/list-turns";
export { SessionOrigin } from "./components/session-origin";
export { SessionSidebar } from "./components/session-sidebar";
export { SessionTitle } from "./components/session-title";
export { sessionTitle } from "./lib/title";
