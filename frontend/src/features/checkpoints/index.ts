export { useCheckpoint } from "./api/get-checkpoint";
export { checkpointsQuery, useCheckpoints } from "./api/list-checkpoints";
export { CheckpointDetail } from "./components/checkpoint-detail";
export {
  CheckpointFormDialog,
  type DraftScope,
  type ParentReason,
} from "./components/checkpoint-form";
export { ComparePanel } from "./components/compare-panel";
export { DiffView } from "./components/diff-view";
export { RestoreDialog } from "./components/restore-dialog";
export { Timeline } from "./components/timeline";
export { VerifyHistory } from "./components/verify-history";
