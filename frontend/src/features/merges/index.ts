export { MergeDialog } from "./components/merge-dialog";
export { MergeForm } from "./components/merge-form";
export type { MergeSaver, ResolvedMerge } from "./lib/use-merge-form";
