import type { Checkpoint, Line } from "@/api/models";
import { CheckpointName } from "@/components/checkpoint-name";
import { shortHash } from "@/lib/format";
import type { Where } from "../lib/checkpoint-form-state";

interface SaveWhereProps {
  parent: Checkpoint;
  line: Line;
  lineHead: Checkpoint | null;
  where: Where;
  onWhere: (where: Where) => void;
  lineName: string;
  onLineName: (name: string) => void;
  nameError: string | null;
  /** The line is the one this Session saved to last. */
  ownLine?: boolean;
}

/** Saving from a state that is not the line's HEAD: start a new line there, or save on top of HEAD. */
export function SaveWhere(props: SaveWhereProps) {
  const { parent, line, lineHead, where, onWhere } = props;
  return (
    <fieldset className="save-where" data-testid="save-where">
      <legend>
        <code>{shortHash(parent.commit_hash)}</code> is not the HEAD of line <b>{line.name}</b>
        {lineHead && (
          <>
            {" "}
            (its HEAD is <CheckpointName hash={lineHead.commit_hash} message={lineHead.message} />)
          </>
        )}
        . Save it:
      </legend>
      <label className="radio">
        <input
          type="radio"
          name="where"
          checked={where === "new-line"}
          onChange={() => onWhere("new-line")}
        />
        as a new line starting at <code>{shortHash(parent.commit_hash)}</code>, named
        <input
          aria-label="New line name"
          value={props.lineName}
          disabled={where !== "new-line"}
          aria-invalid={props.nameError ? true : undefined}
          onChange={(e) => props.onLineName(e.target.value)}
        />
      </label>
      {props.nameError && <span className="field-error">{props.nameError}</span>}
      <label className="radio">
        <input
          type="radio"
          name="where"
          checked={where === "on-head"}
          onChange={() => onWhere("on-head")}
        />
        on top of {line.name}'s HEAD
        {props.ownLine ? ", the line this Session saved to last," : ""} with your changes carried
        onto its state
      </label>
    </fieldset>
  );
}
