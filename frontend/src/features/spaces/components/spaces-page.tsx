import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useLocation } from "wouter";
import type { Space } from "@/api/models";
import { ConfirmDialog } from "@/components/dialog";
import { EmptyState, errorMessage, FailureNotice, Loading } from "@/components/feedback";
import { formatDateTime, formatUsage, shortHash, timeAgo, USAGE_NOTE } from "@/lib/format";
import { useDocumentTitle } from "@/lib/use-document-title";
import { useCreateSpace } from "../api/create-space";
import { useDeleteSpace } from "../api/delete-space";
import { exportSpace } from "../api/export-space";
import { useSpaces } from "../api/list-spaces";
import { useUpdateSpace } from "../api/update-space";
import { ImportSpace } from "./import-space";

export function SpacesPage() {
  const spaces = useSpaces();
  useDocumentTitle("Spaces");
  return (
    <div className="page spaces-page">
      <header className="page-header">
        <div>
          <h1>Spaces</h1>
          <p className="muted">
            A Space is one line of work. Save Checkpoints as it goes; mount any of them to continue
            from exactly that state.
          </p>
        </div>
        <ImportSpace />
      </header>
      <CreateSpaceForm />
      {spaces.isPending && <Loading what="Spaces" />}
      <FailureNotice error={spaces.error} />
      {spaces.data && spaces.data.items.length === 0 && (
        <EmptyState title="No Spaces yet">
          <p className="muted">Create the first one above.</p>
        </EmptyState>
      )}
      {spaces.data && spaces.data.items.length > 0 && (
        <ul className="space-list" aria-label="Spaces">
          {spaces.data.items.map((space) => (
            <SpaceRow key={space.id} space={space} />
          ))}
        </ul>
      )}
    </div>
  );
}

function CreateSpaceForm() {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const create = useCreateSpace();
  const [, navigate] = useLocation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    create.mutate(
      { name: name.trim(), description: description.trim() },
      {
        onSuccess: (space) => {
          setName("");
          setDescription("");
          navigate(`/spaces/${space.id}`);
        },
      },
    );
  };

  return (
    <form className="card create-space" onSubmit={submit} aria-label="New Space">
      <div className="field-row">
        <label className="field grow">
          <span>Name</span>
          <input
            name="space-name"
            value={name}
            maxLength={200}
            placeholder="e.g. Lisbon trip, Storage migration"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label className="field grow">
          <span>Description (optional)</span>
          <input
            name="space-description"
            value={description}
            placeholder="What this line of work is about"
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        <button type="submit" className="btn primary" disabled={!name.trim() || create.isPending}>
          {create.isPending ? "Creating…" : "Create Space"}
        </button>
      </div>
      <FailureNotice error={create.error} />
    </form>
  );
}

function SpaceRow({ space }: { space: Space }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(space.name);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateSpace();
  const remove = useDeleteSpace();
  const exporting = useMutation({ mutationFn: () => exportSpace(space.id) });

  const rename = (event: FormEvent) => {
    event.preventDefault();
    const next = name.trim();
    if (!next || next === space.name) {
      setEditing(false);
      return;
    }
    update.mutate(
      { spaceId: space.id, body: { name: next } },
      { onSuccess: () => setEditing(false) },
    );
  };

  return (
    <li className="card space-row" data-testid="space-row" data-space-id={space.id}>
      <div className="space-main">
        {editing ? (
          <form className="rename-form" onSubmit={rename}>
            <input
              aria-label="New name"
              value={name}
              maxLength={200}
              onChange={(e) => setName(e.target.value)}
              // biome-ignore lint/a11y/noAutofocus: the person just asked to rename.
              autoFocus
            />
            <button type="submit" className="btn primary small" disabled={update.isPending}>
              Save
            </button>
            <button
              type="button"
              className="btn small"
              onClick={() => {
                setName(space.name);
                setEditing(false);
              }}
            >
              Cancel
            </button>
          </form>
        ) : (
          <Link href={`/spaces/${space.id}`} className="space-name">
            {space.name}
          </Link>
        )}
        {space.description && <p className="muted">{space.description}</p>}
        <p className="space-meta">
          {space.head_commit_id && space.head_commit_hash ? (
            <span className="head-chip" title="HEAD: the Space's latest Checkpoint">
              <span className="badge head">HEAD</span>
              <code>{shortHash(space.head_commit_hash)}</code> {space.head_message}
            </span>
          ) : (
            <span className="muted">No Checkpoint yet</span>
          )}
          <span className="muted" title={formatDateTime(space.updated_at)}>
            · changed {timeAgo(space.updated_at)}
          </span>
          {formatUsage(space.usage) && (
            <span className="muted" data-testid="space-usage" title={USAGE_NOTE}>
              {" "}
              · {formatUsage(space.usage)}
            </span>
          )}
        </p>
        <FailureNotice error={update.error} />
        <FailureNotice error={exporting.error} />
      </div>
      <div className="space-actions">
        <button
          type="button"
          className="btn small"
          title="Download the whole Space as a bundle file: Checkpoints with their hashes, lines, Sessions and Turns"
          disabled={exporting.isPending}
          onClick={() => exporting.mutate()}
        >
          {exporting.isPending ? "Exporting…" : "Export"}
        </button>
        <button
          type="button"
          className="btn small"
          onClick={() => setEditing(true)}
          disabled={editing}
        >
          Rename
        </button>
        <button
          type="button"
          className="btn small danger-outline"
          onClick={() => setConfirming(true)}
        >
          Delete
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Delete “${space.name}”?`}
        body={
          <p>
            This deletes the Space with all its Sessions, Turns and Checkpoints. It cannot be
            undone.
          </p>
        }
        confirmLabel="Delete Space"
        danger
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate(space.id, { onSuccess: () => setConfirming(false) })}
      />
    </li>
  );
}
