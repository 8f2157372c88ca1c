import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { ApiError } from "@/api/client";
import type { Checkpoint, Line } from "@/api/models";
import { CheckpointName } from "@/components/checkpoint-name";
import { Dialog } from "@/components/dialog";
import { FailureNotice, Spinner } from "@/components/feedback";
import { useCreateLine } from "@/features/lines";
import { findById } from "@/lib/find-by-id";
import { readJson, writeJson } from "@/lib/storage";
import { useCommitCheckpoint } from "../api/commit-checkpoint";
import { useDraftCheckpoint } from "../api/draft-checkpoint";
import { getHead } from "../api/get-head";
import { rebaseForm } from "../lib/carry";
import {
  AUTHOR_KEY,
  type CheckpointFormValues,
  type DraftProvenance,
  emptyForm,
  type FormErrors,
  formFromCheckpoint,
  formToCommit,
  type SaveSource,
  validateForm,
} from "../lib/form";
import { acceptProposal, type Proposal, proposalsFromDraft } from "../lib/proposals";
import { homeLine, suggestLineName } from "../lib/save-target";
import { FormFields } from "./form-fields";
import { ParentDiff } from "./parent-diff";
import { ProposalList } from "./proposal-list";
import { SaveWhere, type Where } from "./save-where";

export interface DraftScope {
  sessionId: string;
  historyBaseSeq: number | null;
  provider: string | null;
  model: string | null;
}

/**
 * Why the form starts from its parent: the Checkpoint the Session saved last (its next save goes
 * on from there), else the Session's base, else HEAD.
 */
export type ParentReason = "last-saved" | "base" | "head";

interface CheckpointFormDialogProps {
  open: boolean;
  /** "draft" asks the model for a draft as soon as the form opens. */
  mode: "blank" | "draft";
  spaceId: string;
  /** The Checkpoint whose state the form starts from (null: the Space has none yet). */
  parent: Checkpoint | null;
  parentReason: ParentReason;
  /** The line the parent went to when it was saved (the Session's last save): saved on again. */
  parentLine?: string | null;
  lines: readonly Line[];
  checkpoints: readonly Checkpoint[];
  draftScope: DraftScope | null;
  /** The Session the Checkpoint is saved from, recorded as its `metadata.source`. */
  source?: SaveSource | null;
  onClose: () => void;
  /** After the save: the Checkpoint, and the line it went to (null: the default line). */
  onSaved: (checkpoint: Checkpoint, line: string | null) => void;
}

export function CheckpointFormDialog(props: CheckpointFormDialogProps) {
  // The form exists only while the dialog is open, so each opening starts a fresh one and no
  // stale draft survives. (A key bumped by an effect once did the same a render late: the form
  // mounted twice per opening, and in draft mode asked the model twice.)
  return (
    <Dialog open={props.open} title="Save checkpoint" onClose={props.onClose} wide>
      {props.open && <CheckpointForm {...props} />}
    </Dialog>
  );
}

const valuesOf = (c: Checkpoint | null, author = "") =>
  c ? formFromCheckpoint(c, author) : emptyForm(author);

const reasonText: Record<ParentReason, string> = {
  "last-saved": "what this Session saved last,",
  base: "this Session's base",
  head: "HEAD",
};

function CheckpointForm(props: CheckpointFormDialogProps) {
  const { mode, spaceId, parent, parentLine = null, lines, checkpoints, draftScope } = props;
  const { source = null, onClose, onSaved } = props;
  const [values, setValues] = useState<CheckpointFormValues>(() =>
    valuesOf(parent, readJson<string>(AUTHOR_KEY) ?? ""),
  );
  // The parent of the save: the form's starting state, or a line's HEAD the edits were moved onto.
  const [base, setBase] = useState<Checkpoint | null>(parent);
  const baseValues = useMemo(() => valuesOf(base), [base]);
  // The line the Session saved to last, while it exists; else the line the parent belongs to.
  const line = useMemo(
    () =>
      lines.find((l) => parentLine !== null && l.name === parentLine) ??
      homeLine(parent?.id ?? null, lines, checkpoints),
    [parent, parentLine, lines, checkpoints],
  );
  const ownLine = parentLine !== null && line?.name === parentLine;
  // The line's HEAD may lie beyond the Checkpoints loaded here: then it is fetched before the
  // edits are moved onto it (moving them onto "nothing" would drop the HEAD's whole state).
  const [fetchedHead, setFetchedHead] = useState<Checkpoint | null>(null);
  const lineHead =
    findById(checkpoints, line?.head_commit_id) ??
    (fetchedHead?.id === line?.head_commit_id ? fetchedHead : null);
  const oldState = parent !== null && line !== null && parent.id !== line.head_commit_id;
  const [where, setWhere] = useState<Where>("new-line");
  const [lineName, setLineName] = useState(() => (parent ? suggestLineName(parent, lines) : ""));
  const [createdLine, setCreatedLine] = useState<string | null>(null);
  const [proposals, setProposals] = useState<Proposal[]>([]);
  const [provenance, setProvenance] = useState<DraftProvenance | null>(null);
  const [acceptedDraft, setAcceptedDraft] = useState(false);
  const [errors, setErrors] = useState<FormErrors & { lineName?: string }>({});
  const [conflict, setConflict] = useState<{ detail: string; head: Checkpoint | null } | null>(
    null,
  );
  const draft = useDraftCheckpoint();
  const commit = useCommitCheckpoint();
  const createLine = useCreateLine(spaceId);
  const newLine = oldState && where === "new-line";

  /** Moves the edits onto another parent's state (nothing of it dropped). */
  const moveTo = (next: Checkpoint | null, from = values) => {
    const moved = rebaseForm(from, baseValues, valuesOf(next));
    setValues(moved);
    setBase(next);
    return moved;
  };

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
          setProposals(proposalsFromDraft(result, values));
          setProvenance({ source: result.source, draftedBy: result.drafted_by });
          setAcceptedDraft(false);
        },
      },
    );
  };

  // Draft once when the form opens in draft mode: each draft is a paid model call. The ref keeps
  // it to one under StrictMode too, which runs a new component's effects twice in development.
  const draftedOnOpen = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the form opens.
  useEffect(() => {
    if (mode !== "draft" || draftedOnOpen.current) return;
    draftedOnOpen.current = true;
    runDraft();
  }, []);

  const accept = (p: Proposal) => {
    setValues((v) => acceptProposal(v, p));
    setProposals((ps) => ps.filter((x) => x.id !== p.id));
    setAcceptedDraft(true);
  };
  const reject = (p: Proposal) => setProposals((ps) => ps.filter((x) => x.id !== p.id));

  const save = async (next: { values: CheckpointFormValues; base: Checkpoint | null }) => {
    const found: typeof errors = validateForm(next.values);
    if (newLine && lineName.trim() === "") found.lineName = "Name the new line.";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setConflict(null);
    writeJson(AUTHOR_KEY, next.values.authorName.trim());
    const branch = newLine ? lineName.trim() : (line?.name ?? null);
    createLine.reset();
    let stage: "line" | "commit" = "line";
    try {
      if (newLine && parent && createdLine !== branch) {
        await createLine.mutateAsync({ name: branch ?? "", from_ref: parent.id });
        setCreatedLine(branch);
      }
      stage = "commit";
      const body = formToCommit(next.values, {
        spaceId,
        expectedHead: next.base?.id ?? null,
        parentId: next.base?.id ?? null,
        branch,
        baseMetadata: next.base?.metadata ?? null,
        // Where the items came from, only when the person took some of the draft's; else the
        // Session it is saved from (how the server knows what the Session saved last).
        provenance: acceptedDraft ? provenance : null,
        source,
      });
      onSaved(await commit.mutateAsync(body), branch);
    } catch (error) {
      if (stage === "commit" && error instanceof ApiError && error.status === 409) {
        const head = await getHead(spaceId, branch).catch(() => null);
        setConflict({ detail: error.detail, head });
      }
    }
  };

  const chooseWhere = async (next: Where) => {
    if (next !== "on-head") {
      setWhere(next);
      moveTo(parent);
      return;
    }
    let head = lineHead;
    if (head === null && line?.head_commit_id) {
      head = await getHead(spaceId, line.name).catch(() => null);
      if (head === null || head.id !== line.head_commit_id) return; // not known yet: stay put
      setFetchedHead(head);
    }
    setWhere(next);
    moveTo(head);
  };

  // Saving again from what the Session saved last, on the line it went to: when that line moved
  // on since (someone else saved on it), the edits go on top of its HEAD unless the person
  // chooses a new line.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form opens.
  useEffect(() => {
    if (props.parentReason === "last-saved" && oldState && ownLine) void chooseWhere("on-head");
  }, []);

  const saveOnNewHead = () => {
    if (!conflict) return;
    void save({ values: moveTo(conflict.head), base: conflict.head });
  };

  const drafting = draft.isPending;
  const saving = commit.isPending || createLine.isPending;
  const failure = createLine.error ?? (conflict ? null : commit.error);
  return (
    <form
      className="checkpoint-form"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void save({ values, base });
      }}
      aria-label="Checkpoint form"
      aria-busy={drafting}
    >
      <div className="form-toolbar">
        <p className="muted small" data-testid="form-parent">
          {parent ? (
            <>
              Starts from {reasonText[props.parentReason]}{" "}
              <CheckpointName hash={parent.commit_hash} message={parent.message} /> with all its
              state; nothing of it is dropped unless you remove it.
              {!oldState && line && <> Saves on line {line.name}.</>}
            </>
          ) : (
            "The first Checkpoint of this Space."
          )}
        </p>
        <div className="toolbar-actions">
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
      {oldState && parent && line && (
        <SaveWhere
          parent={parent}
          line={line}
          lineHead={lineHead}
          where={where}
          onWhere={chooseWhere}
          ownLine={ownLine}
          lineName={lineName}
          onLineName={setLineName}
          nameError={errors.lineName ?? null}
        />
      )}
      {drafting && (
        <div className="drafting" role="status">
          <Spinner label="Drafting" /> The model is drafting from the Turns in the current context…
        </div>
      )}
      <FailureNotice error={draft.error} prefix="Draft failed: " />
      {provenance && (
        <p className="provenance" data-testid="draft-provenance">
          Drafted by {provenance.draftedBy.provider} · {provenance.draftedBy.model} from Turns{" "}
          {provenance.source.from_seq}–{provenance.source.to_seq}. Its suggestions are below: accept
          or reject each; the form changes only when you accept.
          {acceptedDraft ? " The Checkpoint will record this draft as a source." : ""}
        </p>
      )}
      <ProposalList proposals={proposals} onAccept={accept} onReject={reject} />
      <FormFields values={values} errors={errors} disabled={drafting} onChange={setValues} />
      <ParentDiff parent={base} parentValues={baseValues} values={values} />
      <div className="dialog-footer sticky">
        {conflict && (
          <div className="conflict" role="alert" data-testid="conflict">
            <strong>HEAD moved while you were editing.</strong> Someone (a person or an agent) saved
            another Checkpoint on this line, so nothing was written. Your edits are still here.
            {conflict.head && (
              <span>
                {" "}
                HEAD is now{" "}
                <CheckpointName hash={conflict.head.commit_hash} message={conflict.head.message} />.
              </span>
            )}
            <div className="conflict-actions">
              <button
                type="button"
                className="btn small primary"
                onClick={saveOnNewHead}
                disabled={saving}
              >
                Save on top of the new HEAD
              </button>
            </div>
          </div>
        )}
        <FailureNotice error={failure} />
        <div className="footer-buttons">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={saving || drafting}>
            {saving ? "Saving…" : newLine ? "Save as a new line" : "Save checkpoint"}
          </button>
        </div>
      </div>
    </form>
  );
}
