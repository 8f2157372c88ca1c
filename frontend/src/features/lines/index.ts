export { useCreateLine } from "./api/create-line";
export { useDeleteLine } from "./api/delete-line";
export { linesQuery, useLines } from "./api/list-lines";
export { useUpdateLine } from "./api/update-line";
export { LinesPanel } from "./components/lines-panel";
export { LockIcon } from "./components/lock-icon";
export { isProtected, lineOptionLabel } from "./lib/protection";
