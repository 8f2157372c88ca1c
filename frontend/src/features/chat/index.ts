export { ChatView } from "./components/chat-view";
export { Composer, type SendInput } from "./components/composer";
export { Boundary, buildRows, TurnList } from "./components/turn-list";
export {
  computeHistoryBaseSeq,
  isInContext,
  type Mount,
  mountCheckpoint,
  mountFields,
} from "./lib/history-base";
export { useSessionMount } from "./lib/use-session-mount";
