import { ListEditor } from "@/components/list-editor";
import type { CheckpointFormValues, FormErrors } from "../lib/form";
import { artifactItem, entityItem, taskItem, textItem } from "./item-editors";

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
      <ListEditor
        label="Decisions"
        itemLabel="Decision"
        items={values.decisions}
        onChange={(v) => set("decisions", v)}
        blank={() => ""}
        addLabel="Add decision"
        renderItem={textItem("A choice that was made")}
      />
      <ListEditor
        label="Assumptions"
        itemLabel="Assumption"
        items={values.assumptions}
        onChange={(v) => set("assumptions", v)}
        blank={() => ""}
        addLabel="Add assumption"
        renderItem={textItem("Something taken for granted")}
      />
      <ListEditor
        label="Tasks"
        itemLabel="Task"
        items={values.tasks}
        onChange={(v) => set("tasks", v)}
        blank={() => ({ text: "", done: false })}
        addLabel="Add task"
        renderItem={taskItem}
      />
      <ListEditor
        label="Open questions"
        itemLabel="Open question"
        items={values.openQuestions}
        onChange={(v) => set("openQuestions", v)}
        blank={() => ""}
        addLabel="Add question"
        renderItem={textItem("Still undecided")}
      />
      <ListEditor
        label="Entities"
        itemLabel="Entity"
        items={values.entities}
        onChange={(v) => set("entities", v)}
        blank={() => ({ name: "", kind: "", description: "" })}
        addLabel="Add entity"
        itemClassName="entity-item"
        renderItem={entityItem}
      />
      <ListEditor
        label="Artifacts"
        itemLabel="Artifact"
        items={values.artifacts}
        onChange={(v) => set("artifacts", v)}
        blank={() => ({ name: "", content: "", mediaType: "text/plain" })}
        addLabel="Add artifact"
        hint="Text the model should see with this Checkpoint: a plan, a snippet, an output."
        itemClassName="artifact-item"
        renderItem={artifactItem}
      />
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
