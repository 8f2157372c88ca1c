import type { ItemEditorProps } from "@/components/list-editor";
import type { CheckpointFormValues } from "../lib/form";

/**
 * How each kind of Checkpoint item is edited inside a ListEditor row. Render functions, not
 * components: a new component type on every render would remount the row and drop the focus.
 */
type Task = CheckpointFormValues["tasks"][number];
type Entity = CheckpointFormValues["entities"][number];
type Artifact = CheckpointFormValues["artifacts"][number];

export const textItem =
  (placeholder: string) =>
  ({ item, label, onChange }: ItemEditorProps<string>) => (
    <textarea
      aria-label={label}
      value={item}
      rows={1}
      placeholder={placeholder}
      onChange={(e) => onChange(e.target.value)}
    />
  );

export const taskItem = ({ item, label, onChange }: ItemEditorProps<Task>) => (
  <>
    <input
      type="checkbox"
      aria-label={`${label} done`}
      checked={item.done}
      onChange={(e) => onChange({ ...item, done: e.target.checked })}
    />
    <textarea
      aria-label={label}
      value={item.text}
      rows={1}
      placeholder="What needs doing"
      onChange={(e) => onChange({ ...item, text: e.target.value })}
    />
  </>
);

export const entityItem = ({ item, label, onChange }: ItemEditorProps<Entity>) => (
  <>
    <input
      aria-label={`${label} name`}
      value={item.name}
      placeholder="Name"
      onChange={(e) => onChange({ ...item, name: e.target.value })}
    />
    <input
      aria-label={`${label} kind`}
      value={item.kind}
      placeholder="Kind (optional)"
      onChange={(e) => onChange({ ...item, kind: e.target.value })}
    />
    <input
      aria-label={`${label} description`}
      value={item.description}
      placeholder="Description (optional)"
      onChange={(e) => onChange({ ...item, description: e.target.value })}
    />
  </>
);

export const artifactItem = ({ item, label, onChange }: ItemEditorProps<Artifact>) => (
  <div className="artifact-fields">
    <input
      aria-label={`${label} name`}
      value={item.name}
      placeholder="Name, e.g. plan.md"
      onChange={(e) => onChange({ ...item, name: e.target.value })}
    />
    <input
      aria-label={`${label} media type`}
      value={item.mediaType}
      placeholder="text/plain"
      onChange={(e) => onChange({ ...item, mediaType: e.target.value })}
    />
    <textarea
      aria-label={`${label} content`}
      value={item.content}
      rows={4}
      className="mono"
      placeholder="Content"
      onChange={(e) => onChange({ ...item, content: e.target.value })}
    />
  </div>
);
