export { ContextPanel } from "./components/context-panel";
