import type { Artifact, Entity, Task } from "@/api/models";
import { TaskView } from "@/features/checkpoints";
import { formatBytes } from "@/lib/format";
import type { MergeField, SideValue } from "../types";

/** One side's value of a conflicting item, as it reads: text, a task, an entity, an artifact. */
export function SideValueView({
  field,
  value,
  absent,
}: {
  field: MergeField;
  value: SideValue;
  /** What an absent value means here: "removed", "not in the base"… */
  absent: string;
}) {
  if (value === null) return <p className="side-absent">{absent}</p>;
  if (typeof value === "string") {
    return value === "" ? (
      <p className="side-absent">(empty)</p>
    ) : (
      <p className="side-text">{value}</p>
    );
  }
  if (field === "tasks") {
    return (
      <p className="side-text">
        <TaskView task={value as Task} openBadge />
      </p>
    );
  }
  if (field === "entities") {
    const entity = value as Entity;
    return (
      <p className="side-text">
        <strong>{entity.name}</strong>
        {entity.kind && <span className="badge muted-badge">{entity.kind}</span>}
        {entity.description && <span className="muted"> — {entity.description}</span>}
      </p>
    );
  }
  const artifact = value as Artifact;
  return (
    <div className="side-text">
      <p>
        <strong>{artifact.name}</strong>{" "}
        <span className="muted small">
          {artifact.media_type ?? "text/plain"} · {formatBytes(artifact.content.length)}
        </span>
      </p>
      {artifact.content && <pre className="side-artifact">{artifact.content}</pre>}
    </div>
  );
}
