export { useAgents } from "./api/list-agents";
export { AgentsPage } from "./components/agents-page";
