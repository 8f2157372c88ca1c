export { MergeDialog } from "./components/merge-dialog";
