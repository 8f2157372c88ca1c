import { useState } from "react";
import { useIsPerson } from "@/api/me";
import type { Checkpoint, Line } from "@/api/models";
import { AuthorBadge } from "@/components/author-badge";
import { ConfirmDialog } from "@/components/dialog";
import { errorMessage, FailureNotice } from "@/components/feedback";
import { agentCreator } from "@/lib/author";
import { shortHash } from "@/lib/format";
import { useCreateLine } from "../api/create-line";
import { useDeleteLine } from "../api/delete-line";
import { useUpdateLine } from "../api/update-line";
import { isProtected } from "../lib/protection";
import { LockIcon } from "./lock-icon";

interface LinesPanelProps {
  spaceId: string;
  lines: readonly Line[];
  checkpoints: readonly Checkpoint[];
  /** Where a new line starts by default: the selected Checkpoint, else the Space's HEAD. */
  startAt: string | null;
  /** Merge this line into another (the default line, unless it is the default). */
  onMerge?: (line: string) => void;
}

/** The Space's lines: each with its HEAD; create, rename, make default, delete. */
export function LinesPanel({ spaceId, lines, checkpoints, startAt, onMerge }: LinesPanelProps) {
  const create = useCreateLine(spaceId);
  const update = useUpdateLine(spaceId);
  const person = useIsPerson();
  const remove = useDeleteLine(spaceId);
  const [name, setName] = useState("");
  const [from, setFrom] = useState(startAt ?? "");
  const [renaming, setRenaming] = useState<{ line: string; name: string } | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const byId = new Map(checkpoints.map((c) => [c.id, c]));
  const error = create.error ?? update.error;
  const defaultLine = lines.find((l) => l.is_default && l.head_commit_id)?.name ?? null;
  // A merge needs two lines with a Checkpoint each.
  const mergeable = lines.filter((l) => l.head_commit_id !== null).length > 1;
  const mergeInto = (line: Line) =>
    line.is_default || !defaultLine ? "another line" : defaultLine;

  return (
    <details className="lines-panel" data-testid="lines-panel">
      <summary>
        Lines <span className="count">{lines.length}</span>
      </summary>
      <ul className="line-list" aria-label="Lines">
        {lines.map((line) => {
          const head = line.head_commit_id ? byId.get(line.head_commit_id) : undefined;
          const agent = agentCreator(line);
          const locked = isProtected(line);
          return (
            <li key={line.name} className="line-row" data-testid="line-row" data-line={line.name}>
              {renaming?.line === line.name ? (
                <form
                  className="line-rename"
                  onSubmit={(e) => {
                    e.preventDefault();
                    update.mutate(
                      { name: line.name, body: { name: renaming.name } },
                      { onSuccess: () => setRenaming(null) },
                    );
                  }}
                >
                  <input
                    aria-label={`New name for ${line.name}`}
                    value={renaming.name}
                    onChange={(e) => setRenaming({ line: line.name, name: e.target.value })}
                  />
                  <button type="submit" className="btn small primary">
                    Rename
                  </button>
                  <button
                    type="button"
                    className="btn small ghost"
                    onClick={() => setRenaming(null)}
                  >
                    Cancel
                  </button>
                </form>
              ) : (
                <span className="line-name">
                  <b>{line.name}</b>
                  {locked && <LockIcon />}
                  {line.is_default && <span className="badge head">default</span>}
                  {agent && <AuthorBadge author={agent} />}{" "}
                  <span className="muted small">
                    {head ? (
                      <>
                        <code>{shortHash(head.commit_hash)}</code> {head.message}
                      </>
                    ) : (
                      "no Checkpoint yet"
                    )}
                  </span>
                </span>
              )}
              <span className="line-actions">
                {onMerge && mergeable && line.head_commit_id && (
                  <button
                    type="button"
                    className="btn small"
                    aria-label={`Merge line ${line.name} into ${mergeInto(line)}`}
                    title={`Merge this line into ${mergeInto(line)}: see what comes in and goes, choose for each conflict, save`}
                    onClick={() => onMerge(line.name)}
                  >
                    Merge…
                  </button>
                )}
                {person && (
                  <button
                    type="button"
                    className="btn small ghost"
                    aria-label={`${locked ? "Unprotect" : "Protect"} line ${line.name}`}
                    aria-pressed={locked}
                    title={
                      locked
                        ? "Let agents commit to, merge into, rename and delete this line again"
                        : "Agents may then only read this line: to change it they open a proposal, which you merge"
                    }
                    disabled={update.isPending}
                    onClick={() => update.mutate({ name: line.name, body: { protected: !locked } })}
                  >
                    {locked ? "Unprotect" : "Protect"}
                  </button>
                )}
                <button
                  type="button"
                  className="btn small ghost"
                  aria-label={`Rename line ${line.name}`}
                  onClick={() => setRenaming({ line: line.name, name: line.name })}
                >
                  Rename
                </button>
                {!line.is_default && (
                  <>
                    <button
                      type="button"
                      className="btn small"
                      aria-label={`Make ${line.name} the default line`}
                      disabled={update.isPending}
                      onClick={() => update.mutate({ name: line.name, body: { is_default: true } })}
                    >
                      Make default
                    </button>
                    <button
                      type="button"
                      className="btn small ghost"
                      aria-label={`Delete line ${line.name}`}
                      onClick={() => setDeleting(line.name)}
                    >
                      Delete
                    </button>
                  </>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      <form
        className="line-create"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { name: name.trim(), ...(from ? { from_ref: from } : {}) },
            { onSuccess: () => setName("") },
          );
        }}
      >
        <input
          aria-label="Line name"
          placeholder="New line name"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <select
          aria-label="Start the line at"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
        >
          <option value="">at HEAD</option>
          {checkpoints.map((c) => (
            <option key={c.id} value={c.id}>
              at {shortHash(c.commit_hash)} {c.message}
            </option>
          ))}
        </select>
        <button
          type="submit"
          className="btn small primary"
          disabled={name.trim() === "" || create.isPending}
        >
          Create line
        </button>
      </form>
      <FailureNotice error={error} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this line?"
        body={
          <p>
            The line <b>{deleting}</b> goes; every Checkpoint on it stays in the Space's history.
          </p>
        }
        confirmLabel="Delete line"
        danger
        busy={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        onConfirm={() =>
          deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })
        }
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
      />
    </details>
  );
}
