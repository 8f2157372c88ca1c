/** One item of a Checkpoint's field, in a sentence: "Task", "Open question" (the merge dialog's
 * rows, search's hits). */
export const itemNames = {
  summary: "Summary",
  decisions: "Decision",
  assumptions: "Assumption",
  tasks: "Task",
  open_questions: "Open question",
  entities: "Entity",
  artifacts: "Artifact",
} as const;
