export { useCheckpoint } from "./api/get-checkpoint";
export { checkpointsQuery, useCheckpoints } from "./api/list-checkpoints";
export { CheckpointDetail } from "./components/checkpoint-detail";
export { CheckpointFormDialog, type DraftScope } from "./components/checkpoint-form";
export { ComparePanel } from "./components/compare-panel";
export { DiffView } from "./components/diff-view";
export { Timeline } from "./components/timeline";
export { VerifyHistory } from "./components/verify-history";
