export { useCommitCheckpoint } from "./api/commit-checkpoint";
export { useCheckpoint } from "./api/get-checkpoint";
export { checkpointsQuery, useCheckpoints } from "./api/list-checkpoints";
export { CheckpointDetail } from "./components/checkpoint-detail";
export {
  CheckpointFormDialog,
  type DraftScope,
  type ParentReason,
} from "./components/checkpoint-form";
export { ComparePanel } from "./components/compare-panel";
export { DiffSections, DiffView } from "./components/diff-view";
export { RestoreDialog } from "./components/restore-dialog";
export { TaskView } from "./components/task-view";
export { Timeline } from "./components/timeline";
export { VerifyHistory } from "./components/verify-history";
export type { DiffLine, DiffSection } from "./lib/diff";
export { AUTHOR_KEY, inheritedMetadata, type SaveSource } from "./lib/form";
export { entityText, taskText } from "./lib/item-text";
export { orderLines } from "./lib/lanes";
export { findingLabels } from "./lib/review";
