export { AnsweredContextDialog } from "./components/answered-context-dialog";
export { ContextPanel } from "./components/context-panel";
