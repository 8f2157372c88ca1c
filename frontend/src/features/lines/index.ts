export { useCreateLine } from "./api/create-line";
export { useDeleteLine } from "./api/delete-line";
export { linesQuery, useLines } from "./api/list-lines";
export { useUpdateLine } from "./api/update-line";
export { LinesPanel } from "./components/lines-panel";
