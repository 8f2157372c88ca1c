import type { CheckpointFormValues, FormErrors } from "../lib/form";
import {
  ArtifactListEditor,
  EntityListEditor,
  StringListEditor,
  TaskListEditor,
} from "./list-editors";

interface FormFieldsProps {
  values: CheckpointFormValues;
  errors: FormErrors;
  disabled: boolean;
  onChange: (values: CheckpointFormValues) => void;
}

/** Every field of a Checkpoint, lists edited item by item. */
export function FormFields({ values, errors, disabled, onChange }: FormFieldsProps) {
  const set = <K extends keyof CheckpointFormValues>(key: K, value: CheckpointFormValues[K]) =>
    onChange({ ...values, [key]: value });
  return (
    <fieldset className="form-grid" disabled={disabled}>
      <label className="field">
        <span>Message *</span>
        <input
          name="message"
          value={values.message}
          placeholder="What this Checkpoint is, in a line"
          aria-invalid={errors.message ? true : undefined}
          onChange={(e) => set("message", e.target.value)}
        />
        {errors.message && <span className="field-error">{errors.message}</span>}
      </label>
      <label className="field">
        <span>Summary</span>
        <textarea
          name="summary"
          value={values.summary}
          rows={3}
          placeholder="Where the work stands"
          onChange={(e) => set("summary", e.target.value)}
        />
      </label>
      <StringListEditor
        label="Decisions"
        itemLabel="Decision"
        items={values.decisions}
        onChange={(v) => set("decisions", v)}
        placeholder="A choice that was made"
        addLabel="Add decision"
      />
      <StringListEditor
        label="Assumptions"
        itemLabel="Assumption"
        items={values.assumptions}
        onChange={(v) => set("assumptions", v)}
        placeholder="Something taken for granted"
        addLabel="Add assumption"
      />
      <TaskListEditor items={values.tasks} onChange={(v) => set("tasks", v)} />
      <StringListEditor
        label="Open questions"
        itemLabel="Open question"
        items={values.openQuestions}
        onChange={(v) => set("openQuestions", v)}
        placeholder="Still undecided"
        addLabel="Add question"
      />
      <EntityListEditor items={values.entities} onChange={(v) => set("entities", v)} />
      <ArtifactListEditor items={values.artifacts} onChange={(v) => set("artifacts", v)} />
      {errors.artifacts && <span className="field-error">{errors.artifacts}</span>}
      <label className="field narrow">
        <span>Saved by</span>
        <input
          name="author"
          value={values.authorName}
          placeholder="Your name"
          onChange={(e) => set("authorName", e.target.value)}
        />
      </label>
    </fieldset>
  );
}
