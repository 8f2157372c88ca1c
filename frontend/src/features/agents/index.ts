export { AgentsPage } from "./components/agents-page";
