/**
 * A task as it reads in a Checkpoint and in a merge: its box, its text and its status in words.
 * Done is a status, shown by a badge and never by strikethrough: strikethrough means removed (a
 * diff's removed line), and a done task is still in the state (issue 44 item 16).
 */
export function TaskView({
  task,
  openBadge = false,
}: {
  task: { text: string; done?: boolean | null };
  /** Show "open" as a badge too (where done and open tasks are compared side by side). */
  openBadge?: boolean;
}) {
  const done = task.done === true;
  return (
    <span className={done ? "task done" : "task"} data-testid="task">
      <span aria-hidden="true">{done ? "☑" : "☐"}</span> {task.text}{" "}
      {done ? (
        <span className="badge task-status done">
          <span aria-hidden="true">✓ </span>done
        </span>
      ) : openBadge ? (
        <span className="badge task-status">open</span>
      ) : (
        <span className="visually-hidden">(open)</span>
      )}
    </span>
  );
}
