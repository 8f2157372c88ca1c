import { type ReactNode, useId } from "react";

/** What a list's item renderer gets: one item, the label of its fields, and how to change it. */
export interface ItemEditorProps<T> {
  item: T;
  /** "Decision 2": the item's inputs are labelled from it. */
  label: string;
  onChange: (item: T) => void;
}

interface ListEditorProps<T> {
  /** The list's legend, e.g. "Decisions". */
  label: string;
  /** One item, e.g. "Decision": labels the items "Decision 1", "Decision 2"… */
  itemLabel: string;
  items: readonly T[];
  onChange: (items: T[]) => void;
  /** A new, empty item for the add button. */
  blank: () => T;
  addLabel: string;
  hint?: ReactNode;
  /** Extra class of each item's row, for kinds laid out differently. */
  itemClassName?: string;
  renderItem: (props: ItemEditorProps<T>) => ReactNode;
}

/**
 * A list edited item by item: each row is the kind's own fields plus a remove button, and the
 * list ends with an add button. What an item is and how it is edited is the renderer's business.
 */
export function ListEditor<T>({
  label,
  itemLabel,
  items,
  onChange,
  blank,
  addLabel,
  hint,
  itemClassName,
  renderItem,
}: ListEditorProps<T>) {
  const id = useId();
  const replace = (index: number, item: T) =>
    onChange(items.map((current, i) => (i === index ? item : current)));
  return (
    <fieldset className="list-editor" aria-labelledby={id}>
      <legend id={id}>
        {label} <span className="count">{items.length}</span>
      </legend>
      {hint && <p className="hint">{hint}</p>}
      <ol>
        {items.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items are edited in place and may be equal; the index is their identity.
          <li key={index} className={itemClassName ? `list-item ${itemClassName}` : "list-item"}>
            {renderItem({
              item,
              label: `${itemLabel} ${index + 1}`,
              onChange: (next) => replace(index, next),
            })}
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
      <button
        type="button"
        className="btn small ghost"
        onClick={() => onChange([...items, blank()])}
      >
        + {addLabel}
      </button>
    </fieldset>
  );
}
