import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { type ItemEditorProps, ListEditor } from "./list-editor";

type Pair = { key: string; value: string };

const pairItem = ({ item, label, onChange }: ItemEditorProps<Pair>) => (
  <>
    <input
      aria-label={`${label} key`}
      value={item.key}
      onChange={(e) => onChange({ ...item, key: e.target.value })}
    />
    <input
      aria-label={`${label} value`}
      value={item.value}
      onChange={(e) => onChange({ ...item, value: e.target.value })}
    />
  </>
);

/** A ListEditor that holds its items, as a form does; `seen` gets every list it is given. */
function Pairs({ initial, seen }: { initial: Pair[]; seen: (items: Pair[]) => void }) {
  const [items, setItems] = useState(initial);
  return (
    <ListEditor
      label="Settings"
      itemLabel="Setting"
      items={items}
      onChange={(next) => {
        seen(next);
        setItems(next);
      }}
      blank={() => ({ key: "", value: "" })}
      addLabel="Add setting"
      hint="Key and value."
      itemClassName="pair-item"
      renderItem={pairItem}
    />
  );
}

describe("ListEditor", () => {
  it("names the list and its items, with the kind's own fields in each row", () => {
    render(
      <Pairs
        initial={[
          { key: "a", value: "1" },
          { key: "b", value: "2" },
        ]}
        seen={() => {}}
      />,
    );
    const group = screen.getByRole("group", { name: "Settings 2" });
    expect(within(group).getByText("Key and value.")).toHaveClass("hint");
    expect(within(group).getByRole("textbox", { name: "Setting 2 key" })).toHaveValue("b");
    expect(within(group).getByRole("textbox", { name: "Setting 1 value" })).toHaveValue("1");
    const rows = within(group).getAllByRole("listitem");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveClass("list-item", "pair-item");
  });

  it("changes one item through its renderer and leaves the others as they are", async () => {
    const user = userEvent.setup();
    const seen = vi.fn();
    const initial = [
      { key: "a", value: "1" },
      { key: "b", value: "2" },
    ];
    render(<Pairs initial={initial} seen={seen} />);
    await user.type(screen.getByRole("textbox", { name: "Setting 2 value" }), "0");
    expect(seen).toHaveBeenLastCalledWith([
      { key: "a", value: "1" },
      { key: "b", value: "20" },
    ]);
    expect(seen.mock.lastCall?.[0][0]).toBe(initial[0]);
    // The edited input keeps the focus: rows are not remounted as the list changes.
    expect(screen.getByRole("textbox", { name: "Setting 2 value" })).toHaveFocus();
  });

  it("adds a blank item and removes the item asked for", async () => {
    const user = userEvent.setup();
    const seen = vi.fn();
    render(
      <Pairs
        initial={[
          { key: "a", value: "1" },
          { key: "b", value: "2" },
        ]}
        seen={seen}
      />,
    );
    await user.click(screen.getByRole("button", { name: "+ Add setting" }));
    expect(seen).toHaveBeenLastCalledWith([
      { key: "a", value: "1" },
      { key: "b", value: "2" },
      { key: "", value: "" },
    ]);
    expect(screen.getByRole("group", { name: "Settings 3" })).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Remove setting 1" }));
    expect(seen).toHaveBeenLastCalledWith([
      { key: "b", value: "2" },
      { key: "", value: "" },
    ]);
    expect(screen.getByRole("textbox", { name: "Setting 1 key" })).toHaveValue("b");
    expect(screen.queryByRole("textbox", { name: "Setting 3 key" })).toBeNull();
  });

  it("shows an empty list with its count and no hint when none is given", () => {
    render(
      <ListEditor
        label="Decisions"
        itemLabel="Decision"
        items={[] as string[]}
        onChange={() => {}}
        blank={() => ""}
        addLabel="Add decision"
        renderItem={({ item, label }) => <input aria-label={label} value={item} readOnly />}
      />,
    );
    const group = screen.getByRole("group", { name: "Decisions 0" });
    expect(within(group).queryAllByRole("listitem")).toHaveLength(0);
    expect(group.querySelector(".hint")).toBeNull();
    expect(within(group).getByRole("button", { name: "+ Add decision" })).toBeInTheDocument();
  });
});
