import { type FormEvent, useEffect, useRef, useState } from "react";
import { ApiError } from "@/api/client";
import type { Checkpoint } from "@/api/models";
import { Dialog, ErrorNotice } from "@/components/dialog";
import { errorMessage, Spinner } from "@/components/feedback";
import { shortHash } from "@/lib/format";
import { readJson, writeJson } from "@/lib/storage";
import { useCommitCheckpoint } from "../api/commit-checkpoint";
import { useDraftCheckpoint } from "../api/draft-checkpoint";
import { getHead } from "../api/get-head";
import {
  type CheckpointFormValues,
  type DraftProvenance,
  emptyForm,
  type FormErrors,
  formFromCheckpoint,
  formFromDraft,
  formToCommit,
  validateForm,
} from "../lib/form";
import {
  ArtifactListEditor,
  EntityListEditor,
  StringListEditor,
  TaskListEditor,
} from "./list-editors";

const AUTHOR_KEY = "smriti.author";

export interface DraftScope {
  sessionId: string;
  historyBaseSeq: number | null;
  provider: string | null;
  model: string | null;
}

interface CheckpointFormDialogProps {
  open: boolean;
  /** "draft" asks the model for a draft as soon as the form opens. */
  mode: "blank" | "draft";
  spaceId: string;
  /** The HEAD the person sees; the save is a compare-and-swap against it. */
  head: Checkpoint | null;
  headId: string | null;
  draftScope: DraftScope | null;
  /** Restore: start from this Checkpoint's state and fork from it; HEAD moves to the new Checkpoint. */
  restoreFrom?: Checkpoint | null;
  onClose: () => void;
  onSaved: (checkpoint: Checkpoint) => void;
}

export function CheckpointFormDialog(props: CheckpointFormDialogProps) {
  // Remount the form body each time the dialog opens, so no stale draft survives.
  const [generation, setGeneration] = useState(0);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (props.open && !wasOpen.current) setGeneration((g) => g + 1);
    wasOpen.current = props.open;
  }, [props.open]);

  return (
    <Dialog
      open={props.open}
      title={props.restoreFrom ? "Restore a Checkpoint as HEAD" : "Save checkpoint"}
      onClose={props.onClose}
      wide
    >
      {props.open && <CheckpointForm key={generation} {...props} />}
    </Dialog>
  );
}

function CheckpointForm({
  mode,
  spaceId,
  head,
  headId,
  draftScope,
  restoreFrom = null,
  onClose,
  onSaved,
}: CheckpointFormDialogProps) {
  const author = readJson<string>(AUTHOR_KEY) ?? "";
  const [values, setValues] = useState<CheckpointFormValues>(() =>
    restoreFrom
      ? { ...formFromCheckpoint(restoreFrom, author), message: `Restore “${restoreFrom.message}”` }
      : emptyForm(author),
  );
  const [provenance, setProvenance] = useState<DraftProvenance | null>(null);
  // The HEAD the person saw when the form opened: the save is a compare-and-swap against it.
  const [seenHead, setSeenHead] = useState<Checkpoint | null>(head);
  const [expectedHead, setExpectedHead] = useState<string | null>(headId);
  const [latestHead, setLatestHead] = useState<Checkpoint | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [conflict, setConflict] = useState<string | null>(null);
  const draft = useDraftCheckpoint();
  const commit = useCommitCheckpoint();

  const set = <K extends keyof CheckpointFormValues>(key: K, value: CheckpointFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  const runDraft = () => {
    if (!draftScope) return;
    draft.mutate(
      {
        session_id: draftScope.sessionId,
        ...(draftScope.historyBaseSeq !== null
          ? { history_base_seq: draftScope.historyBaseSeq }
          : {}),
        ...(draftScope.provider ? { provider: draftScope.provider, model: draftScope.model } : {}),
      },
      {
        onSuccess: (result) => {
          setValues((v) => ({ ...formFromDraft(result, v.authorName), artifacts: v.artifacts }));
          setProvenance({ source: result.source, draftedBy: result.drafted_by });
        },
      },
    );
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: draft once, when the form opens in draft mode.
  useEffect(() => {
    if (mode === "draft") runDraft();
  }, []);

  const save = (event?: FormEvent, expected: string | null = expectedHead) => {
    event?.preventDefault();
    const found = validateForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setConflict(null);
    writeJson(AUTHOR_KEY, values.authorName.trim());
    const body = formToCommit(values, {
      spaceId,
      expectedHead: expected,
      provenance,
      parentId: restoreFrom?.id ?? null,
    });
    commit.mutate(body, {
      onSuccess: (checkpoint) => onSaved(checkpoint),
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) {
          setConflict(error.detail);
          void getHead(spaceId).then(setLatestHead, () => setLatestHead(null));
        }
      },
    });
  };

  const saveOnNewHead = async () => {
    const latest = await getHead(spaceId);
    const latestId = latest?.id ?? null;
    setSeenHead(latest);
    setExpectedHead(latestId);
    save(undefined, latestId);
  };

  const drafting = draft.isPending;
  return (
    <form
      className="checkpoint-form"
      onSubmit={save}
      aria-label="Checkpoint form"
      aria-busy={drafting}
    >
      <div className="form-toolbar">
        <p className="muted small">
          {restoreFrom ? (
            <>
              Forks from <code>{shortHash(restoreFrom.commit_hash)}</code> “{restoreFrom.message}”
              with its state; HEAD
              {seenHead ? (
                <>
                  {" "}
                  (now <code>{shortHash(seenHead.commit_hash)}</code>)
                </>
              ) : null}{" "}
              moves to the new Checkpoint, so the next person or agent starts from it.
            </>
          ) : seenHead ? (
            <>
              Saves on top of HEAD <code>{shortHash(seenHead.commit_hash)}</code> “
              {seenHead.message}”.
            </>
          ) : (
            "The first Checkpoint of this Space."
          )}
        </p>
        <div className="toolbar-actions">
          {seenHead && (
            <button
              type="button"
              className="btn small ghost"
              onClick={() =>
                setValues((v) => ({
                  ...formFromCheckpoint(seenHead, v.authorName),
                  message: v.message,
                }))
              }
            >
              Copy fields from HEAD
            </button>
          )}
          <button
            type="button"
            className="btn small"
            onClick={runDraft}
            disabled={!draftScope || drafting}
          >
            {drafting ? "Drafting…" : "Draft with AI"}
          </button>
        </div>
      </div>
      {drafting && (
        <div className="drafting" role="status">
          <Spinner label="Drafting" /> The model is drafting from the Turns in the current context…
        </div>
      )}
      {draft.isError && <ErrorNotice message={`Draft failed: ${errorMessage(draft.error)}`} />}
      {provenance && (
        <p className="provenance" data-testid="draft-provenance">
          Drafted by {provenance.draftedBy.provider} · {provenance.draftedBy.model} from Turns{" "}
          {provenance.source.from_seq}–{provenance.source.to_seq}. Edit anything before saving;
          nothing is saved until you do.
        </p>
      )}
      <fieldset className="form-grid" disabled={drafting}>
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
      <div className="dialog-footer sticky">
        {conflict && (
          <div className="conflict" role="alert" data-testid="conflict">
            <strong>HEAD moved while you were editing.</strong> Someone (a person or an agent) saved
            another Checkpoint in this Space, so nothing was written. Your edits are still here.
            {latestHead && (
              <span>
                {" "}
                HEAD is now <code>{shortHash(latestHead.commit_hash)}</code> “{latestHead.message}”.
              </span>
            )}
            <div className="conflict-actions">
              <button
                type="button"
                className="btn small primary"
                onClick={() => void saveOnNewHead()}
                disabled={commit.isPending}
              >
                Save on top of the new HEAD
              </button>
            </div>
          </div>
        )}
        {commit.isError && !conflict && <ErrorNotice message={errorMessage(commit.error)} />}
        <div className="footer-buttons">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={commit.isPending || drafting}>
            {commit.isPending ? "Saving…" : "Save checkpoint"}
          </button>
        </div>
      </div>
    </form>
  );
}
