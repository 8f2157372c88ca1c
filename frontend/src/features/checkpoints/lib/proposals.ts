import type { CheckpointDraft } from "@/api/v5";
import type { CheckpointFormValues } from "./form";
import { taskText } from "./item-text";

type TextField = "decisions" | "assumptions" | "openQuestions";
type Entity = CheckpointFormValues["entities"][number];

/**
 * One change Draft with AI suggests to the form. A draft sees only the Turns in scope, so it
 * never replaces the form: each suggestion is offered on its own, to accept or reject.
 */
export type Proposal =
  | { id: string; kind: "message" | "summary"; text: string }
  | { id: string; kind: "add"; field: TextField; text: string }
  | { id: string; kind: "add-task"; text: string; done: boolean }
  | { id: string; kind: "complete-task"; text: string }
  | { id: string; kind: "entity"; entity: Entity; replaces: boolean };

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

const same = (a: string, b: string) => a.trim() === b.trim();
const has = (items: readonly string[], text: string) => items.some((i) => same(i, text));

/** What the draft adds to these values; nothing the form already holds is proposed again. */
export function proposalsFromDraft(
  draft: CheckpointDraft,
  values: CheckpointFormValues,
): Proposal[] {
  const out: Proposal[] = [];
  const push = (p: DistributiveOmit<Proposal, "id">) =>
    out.push({ ...p, id: `p${out.length}` } as Proposal);
  if (draft.message.trim() && !same(draft.message, values.message))
    push({ kind: "message", text: draft.message.trim() });
  if (draft.summary.trim() && !same(draft.summary, values.summary))
    push({ kind: "summary", text: draft.summary.trim() });
  const lists: [TextField, string[]][] = [
    ["decisions", draft.decisions],
    ["assumptions", draft.assumptions],
    ["openQuestions", draft.open_questions],
  ];
  for (const [field, items] of lists) {
    for (const text of items) {
      if (text.trim() && !has(values[field], text)) push({ kind: "add", field, text: text.trim() });
    }
  }
  for (const task of draft.tasks) {
    const existing = values.tasks.find((t) => same(t.text, task.text));
    if (!existing) push({ kind: "add-task", text: task.text.trim(), done: task.done ?? false });
    else if (task.done && !existing.done) push({ kind: "complete-task", text: existing.text });
  }
  for (const e of draft.entities) {
    const entity = { name: e.name.trim(), kind: e.kind ?? "", description: e.description ?? "" };
    const existing = values.entities.find((v) => same(v.name, e.name));
    const changed =
      existing && (existing.kind !== entity.kind || existing.description !== entity.description);
    // An entity the form already has is only re-proposed when the draft says more about it.
    if (!existing || (changed && (entity.kind || entity.description)))
      push({ kind: "entity", entity, replaces: existing !== undefined });
  }
  return out;
}

/** The values with one proposal accepted. */
export function acceptProposal(values: CheckpointFormValues, p: Proposal): CheckpointFormValues {
  switch (p.kind) {
    case "message":
      return { ...values, message: p.text };
    case "summary":
      return { ...values, summary: p.text };
    case "add":
      return has(values[p.field], p.text)
        ? values
        : { ...values, [p.field]: [...values[p.field], p.text] };
    case "add-task":
      return values.tasks.some((t) => same(t.text, p.text))
        ? values
        : { ...values, tasks: [...values.tasks, { text: p.text, done: p.done }] };
    case "complete-task":
      return {
        ...values,
        tasks: values.tasks.map((t) => (same(t.text, p.text) ? { ...t, done: true } : t)),
      };
    case "entity": {
      const at = values.entities.findIndex((e) => same(e.name, p.entity.name));
      const entities =
        at === -1
          ? [...values.entities, p.entity]
          : values.entities.map((e, i) => (i === at ? p.entity : e));
      return { ...values, entities };
    }
  }
}

const fieldTitle: Record<TextField, string> = {
  decisions: "Decision",
  assumptions: "Assumption",
  openQuestions: "Open question",
};

/** How a proposal reads in the list: what it changes, and the text. */
export function describeProposal(p: Proposal): { what: string; text: string } {
  switch (p.kind) {
    case "message":
      return { what: "Message", text: p.text };
    case "summary":
      return { what: "Replace summary", text: p.text };
    case "add":
      return { what: `Add ${fieldTitle[p.field].toLowerCase()}`, text: p.text };
    case "add-task":
      return { what: "Add task", text: taskText(p) };
    case "complete-task":
      return { what: "Mark task done", text: p.text };
    case "entity": {
      const detail = [p.entity.kind && `(${p.entity.kind})`, p.entity.description]
        .filter(Boolean)
        .join(" ");
      return {
        what: p.replaces ? "Update entity" : "Add entity",
        text: detail ? `${p.entity.name} ${detail}` : p.entity.name,
      };
    }
  }
}
