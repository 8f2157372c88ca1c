export { useOpenProposalCount } from "./api/list-proposals";
export { ProposalPage } from "./components/proposal-page";
export { ProposalsInbox } from "./components/proposals-inbox";
