/** How a task and an entity read as one line of text, in every diff and proposal. */
export const taskText = (task: { text: string; done?: boolean | null }) =>
  `${task.done ? "[x]" : "[ ]"} ${task.text}`;

export const entityText = (entity: {
  name: string;
  kind?: string | null;
  description?: string | null;
}) =>
  [
    entity.name,
    entity.kind ? `(${entity.kind})` : "",
    entity.description ? `— ${entity.description}` : "",
  ]
    .filter(Boolean)
    .join(" ");
