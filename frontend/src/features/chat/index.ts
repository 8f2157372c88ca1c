export { ChatView } from "./components/chat-view";
export { type ChatSession, ChatSessionProvider } from "./lib/chat-session";
export { isInContext, type Mount, mountFields } from "./lib/history-base";
export { useSessionMount } from "./lib/use-session-mount";
