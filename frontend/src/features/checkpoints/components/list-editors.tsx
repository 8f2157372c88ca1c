import { useId } from "react";

interface StringListEditorProps {
  label: string;
  /** One item, e.g. "Decision": labels the inputs "Decision 1", "Decision 2"… */
  itemLabel: string;
  items: string[];
  onChange: (items: string[]) => void;
  placeholder: string;
  addLabel: string;
}

/** A list of strings, edited item by item. */
export function StringListEditor({
  label,
  itemLabel,
  items,
  onChange,
  placeholder,
  addLabel,
}: StringListEditorProps) {
  const id = useId();
  return (
    <fieldset className="list-editor" aria-labelledby={id}>
      <legend id={id}>
        {label} <span className="count">{items.length}</span>
      </legend>
      <ol>
        {items.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items are plain strings edited in place; the index is their identity.
          <li key={index} className="list-item">
            <textarea
              aria-label={`${itemLabel} ${index + 1}`}
              value={item}
              rows={1}
              placeholder={placeholder}
              onChange={(e) => onChange(items.map((v, i) => (i === index ? e.target.value : v)))}
            />
            <button
              type="button"
              className="btn ghost icon"
              aria-label={`Remove ${itemLabel.toLowerCase()} ${index + 1}`}
              onClick={() => onChange(items.filter((_, i) => i !== index))}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="btn small ghost" onClick={() => onChange([...items, ""])}>
        + {addLabel}
      </button>
    </fieldset>
  );
}

type Task = { text: string; done: boolean };

export function TaskListEditor({
  items,
  onChange,
}: {
  items: Task[];
  onChange: (items: Task[]) => void;
}) {
  const update = (index: number, patch: Partial<Task>) =>
    onChange(items.map((t, i) => (i === index ? { ...t, ...patch } : t)));
  return (
    <fieldset className="list-editor">
      <legend>
        Tasks <span className="count">{items.length}</span>
      </legend>
      <ol>
        {items.map((task, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: edited in place; the index is the identity.
          <li key={index} className="list-item">
            <input
              type="checkbox"
              aria-label={`Task ${index + 1} done`}
              checked={task.done}
              onChange={(e) => update(index, { done: e.target.checked })}
            />
            <textarea
              aria-label={`Task ${index + 1}`}
              value={task.text}
              rows={1}
              placeholder="What needs doing"
              onChange={(e) => update(index, { text: e.target.value })}
            />
            <button
              type="button"
              className="btn ghost icon"
              aria-label={`Remove task ${index + 1}`}
              onClick={() => onChange(items.filter((_, i) => i !== index))}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn small ghost"
        onClick={() => onChange([...items, { text: "", done: false }])}
      >
        + Add task
      </button>
    </fieldset>
  );
}

type Entity = { name: string; kind: string; description: string };

export function EntityListEditor({
  items,
  onChange,
}: {
  items: Entity[];
  onChange: (items: Entity[]) => void;
}) {
  const update = (index: number, patch: Partial<Entity>) =>
    onChange(items.map((e, i) => (i === index ? { ...e, ...patch } : e)));
  return (
    <fieldset className="list-editor">
      <legend>
        Entities <span className="count">{items.length}</span>
      </legend>
      <ol>
        {items.map((entity, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: edited in place; the index is the identity.
          <li key={index} className="list-item entity-item">
            <input
              aria-label={`Entity ${index + 1} name`}
              value={entity.name}
              placeholder="Name"
              onChange={(e) => update(index, { name: e.target.value })}
            />
            <input
              aria-label={`Entity ${index + 1} kind`}
              value={entity.kind}
              placeholder="Kind (optional)"
              onChange={(e) => update(index, { kind: e.target.value })}
            />
            <input
              aria-label={`Entity ${index + 1} description`}
              value={entity.description}
              placeholder="Description (optional)"
              onChange={(e) => update(index, { description: e.target.value })}
            />
            <button
              type="button"
              className="btn ghost icon"
              aria-label={`Remove entity ${index + 1}`}
              onClick={() => onChange(items.filter((_, i) => i !== index))}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn small ghost"
        onClick={() => onChange([...items, { name: "", kind: "", description: "" }])}
      >
        + Add entity
      </button>
    </fieldset>
  );
}

type ArtifactValue = { name: string; content: string; mediaType: string };

export function ArtifactListEditor({
  items,
  onChange,
}: {
  items: ArtifactValue[];
  onChange: (items: ArtifactValue[]) => void;
}) {
  const update = (index: number, patch: Partial<ArtifactValue>) =>
    onChange(items.map((a, i) => (i === index ? { ...a, ...patch } : a)));
  return (
    <fieldset className="list-editor">
      <legend>
        Artifacts <span className="count">{items.length}</span>
      </legend>
      <p className="hint">
        Text the model should see with this Checkpoint: a plan, a snippet, an output.
      </p>
      <ol>
        {items.map((artifact, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: edited in place; the index is the identity.
          <li key={index} className="list-item artifact-item">
            <div className="artifact-fields">
              <input
                aria-label={`Artifact ${index + 1} name`}
                value={artifact.name}
                placeholder="Name, e.g. plan.md"
                onChange={(e) => update(index, { name: e.target.value })}
              />
              <input
                aria-label={`Artifact ${index + 1} media type`}
                value={artifact.mediaType}
                placeholder="text/plain"
                onChange={(e) => update(index, { mediaType: e.target.value })}
              />
              <textarea
                aria-label={`Artifact ${index + 1} content`}
                value={artifact.content}
                rows={4}
                className="mono"
                placeholder="Content"
                onChange={(e) => update(index, { content: e.target.value })}
              />
            </div>
            <button
              type="button"
              className="btn ghost icon"
              aria-label={`Remove artifact ${index + 1}`}
              onClick={() => onChange(items.filter((_, i) => i !== index))}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn small ghost"
        onClick={() => onChange([...items, { name: "", content: "", mediaType: "text/plain" }])}
      >
        + Add artifact
      </button>
    </fieldset>
  );
}
