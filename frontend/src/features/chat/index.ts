export { ChatView } from "./components/chat-view";
export { type ChatSession, ChatSessionProvider, type JustSaved } from "./lib/chat-session";
