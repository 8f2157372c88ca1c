import { useId } from "react";
import type { Artifact, Entity, Task } from "@/api/models";
import { conflictField, conflictTitle, itemNames, sideValue } from "../lib/items";
import { choicesFor, editStart, type ResolveOptions, resolvedValues } from "../lib/resolve";
import type { Choice, ChoiceKind, MergeConflict, MergeField, SideValue } from "../types";
import { SideValueView } from "./side-value";

interface ConflictChooserProps {
  conflict: MergeConflict;
  choice: Choice | null;
  onChoice: (choice: Choice) => void;
  /** The line merged into (ours) and the line merged in (theirs), as the person knows them. */
  oursName: string;
  theirsName: string;
}

/**
 * One conflict: base, ours and theirs side by side, and the person's choice: ours, theirs, both
 * (where that means something) or their own text, prefilled with what the choice so far makes.
 */
export function ConflictChooser({
  conflict,
  choice,
  onChoice,
  oursName,
  theirsName,
}: ConflictChooserProps) {
  const name = useId();
  const field = conflictField(conflict);
  const base = sideValue(field, conflict.base);
  const ours = sideValue(field, conflict.ours);
  const theirs = sideValue(field, conflict.theirs);
  const options: ResolveOptions = { theirsName };
  const title = conflictTitle(conflict);
  const labels: Record<ChoiceKind, string> = {
    ours: `Ours (${oursName})`,
    theirs: `Theirs (${theirsName})`,
    both: "Both",
    edit: "Edit",
  };
  // A side without the item removed it, unless the base never had it either.
  const missing = base === null ? "not there" : "removed";
  const choose = (kind: ChoiceKind) => {
    if (kind === "edit") onChoice({ kind, value: editStart(conflict, choice, options) });
    else onChoice({ kind });
  };

  return (
    <fieldset
      className={choice ? "merge-conflict chosen" : "merge-conflict"}
      data-testid="merge-conflict"
      data-field={field}
    >
      <legend>{title}</legend>
      <div className="conflict-sides">
        <section className="conflict-side base" aria-label="Base">
          <h5>Base</h5>
          <SideValueView field={field} value={base} absent="not in the base" />
        </section>
        <section
          className={choice?.kind === "ours" ? "conflict-side ours picked" : "conflict-side ours"}
          aria-label={`Ours (${oursName})`}
        >
          <h5>
            Ours <span className="side-line">{oursName}</span>
          </h5>
          <SideValueView field={field} value={ours} absent={missing} />
        </section>
        <section
          className={
            choice?.kind === "theirs" ? "conflict-side theirs picked" : "conflict-side theirs"
          }
          aria-label={`Theirs (${theirsName})`}
        >
          <h5>
            Theirs <span className="side-line">{theirsName}</span>
          </h5>
          <SideValueView field={field} value={theirs} absent={missing} />
        </section>
      </div>
      <div className="conflict-choices" role="radiogroup" aria-label={`Resolve ${title}`}>
        {choicesFor(conflict).map((kind) => (
          <label key={kind} className={choice?.kind === kind ? "choice on" : "choice"}>
            <input
              type="radio"
              name={name}
              value={kind}
              checked={choice?.kind === kind}
              onChange={() => choose(kind)}
            />
            {labels[kind]}
          </label>
        ))}
      </div>
      {choice?.kind === "edit" && (
        <EditValue
          field={field}
          value={choice.value}
          onChange={(value) => onChoice({ kind: "edit", value })}
        />
      )}
      {choice && (
        <div className="conflict-result" data-testid="conflict-result">
          <span className="muted small">Result: </span>
          <Result field={field} values={resolvedValues(conflict, choice, options)} />
        </div>
      )}
    </fieldset>
  );
}

function Result({ field, values }: { field: MergeField; values: Exclude<SideValue, null>[] }) {
  if (values.length === 0 || (field === "summary" && values[0] === "")) {
    return (
      <span className="small">{field === "summary" ? "an empty summary" : "the item goes"}</span>
    );
  }
  return (
    <>
      {values.map((value, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: at most two values, in a fixed order.
        <SideValueView key={i} field={field} value={value} absent="" />
      ))}
    </>
  );
}

/** The person's own value: a text box for text, the item's fields for a task, entity or artifact. */
function EditValue({
  field,
  value,
  onChange,
}: {
  field: MergeField;
  value: string | Task | Entity | Artifact;
  onChange: (value: string | Task | Entity | Artifact) => void;
}) {
  const noun = itemNames[field].toLowerCase();
  if (typeof value === "string") {
    return field === "summary" ? (
      <textarea
        className="conflict-edit"
        aria-label="Your summary"
        rows={4}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    ) : (
      <input
        className="conflict-edit"
        aria-label={`Your ${noun}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  if (field === "tasks") {
    const task = value as Task;
    return (
      <div className="conflict-edit row">
        <input
          aria-label="Your task"
          value={task.text}
          onChange={(e) => onChange({ ...task, text: e.target.value })}
        />
        <label className="inline-check">
          <input
            type="checkbox"
            checked={task.done ?? false}
            onChange={(e) => onChange({ ...task, done: e.target.checked })}
          />
          Done
        </label>
      </div>
    );
  }
  if (field === "entities") {
    const entity = value as Entity;
    return (
      <div className="conflict-edit row">
        <input
          aria-label="Entity name"
          value={entity.name}
          onChange={(e) => onChange({ ...entity, name: e.target.value })}
        />
        <input
          aria-label="Entity kind"
          placeholder="kind"
          value={entity.kind ?? ""}
          onChange={(e) => onChange({ ...entity, kind: e.target.value })}
        />
        <input
          aria-label="Entity description"
          placeholder="description"
          className="grow"
          value={entity.description ?? ""}
          onChange={(e) => onChange({ ...entity, description: e.target.value })}
        />
      </div>
    );
  }
  const artifact = value as Artifact;
  return (
    <div className="conflict-edit column">
      <input
        aria-label="Artifact name"
        value={artifact.name}
        onChange={(e) => onChange({ ...artifact, name: e.target.value })}
      />
      <textarea
        aria-label="Artifact content"
        rows={6}
        value={artifact.content}
        onChange={(e) => onChange({ ...artifact, content: e.target.value })}
      />
    </div>
  );
}
