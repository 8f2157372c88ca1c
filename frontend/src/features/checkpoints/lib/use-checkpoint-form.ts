import { useEffect, useMemo, useRef, useState } from "react";
import { ApiError } from "@/api/client";
import type { Checkpoint, Line } from "@/api/models";
import { useCreateLine } from "@/features/lines";
import { findById } from "@/lib/find-by-id";
import { readJson, writeJson } from "@/lib/storage";
import { useCommitCheckpoint } from "../api/commit-checkpoint";
import { useDraftCheckpoint } from "../api/draft-checkpoint";
import { getHead } from "../api/get-head";
import {
  type CheckpointFormEvent,
  type CheckpointFormState,
  checkpointFormReducer,
  initialCheckpointForm,
  saveErrors,
  valuesOf,
  type Where,
} from "./checkpoint-form-state";
import { AUTHOR_KEY, formToCommit, type SaveSource } from "./form";
import { homeLine, suggestLineName } from "./save-target";

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

export interface CheckpointFormOptions {
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
  /** After the save: the Checkpoint, and the line it went to (null: the default line). */
  onSaved: (checkpoint: Checkpoint, line: string | null) => void;
}

/**
 * The one owner of the Save checkpoint form's state: the reducer of checkpoint-form-state.ts,
 * plus the draft, the line and the commit it sends. The form only shows what this returns.
 */
export function useCheckpointForm(options: CheckpointFormOptions) {
  const { mode, spaceId, parent, parentLine = null, lines, checkpoints, draftScope } = options;
  const { source = null, onSaved } = options;
  const [state, setState] = useState<CheckpointFormState>(() =>
    initialCheckpointForm(
      parent,
      readJson<string>(AUTHOR_KEY) ?? "",
      parent ? suggestLineName(parent, lines) : "",
    ),
  );
  // Read and written synchronously, as useSend does: a save right after moving the edits onto
  // a new HEAD sends the moved values, and what arrives late applies to the state as it is then.
  const current = useRef(state);
  const dispatch = (event: CheckpointFormEvent): CheckpointFormState => {
    current.current = checkpointFormReducer(current.current, event);
    setState(current.current);
    return current.current;
  };
  const draft = useDraftCheckpoint();
  const commit = useCommitCheckpoint();
  const createLine = useCreateLine(spaceId);

  const baseValues = useMemo(() => valuesOf(state.base), [state.base]);
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
  const lineHead =
    findById(checkpoints, line?.head_commit_id) ??
    (state.fetchedHead?.id === line?.head_commit_id ? state.fetchedHead : null);
  const oldState = parent !== null && line !== null && parent.id !== line.head_commit_id;
  const newLine = oldState && state.where === "new-line";

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
      { onSuccess: (result) => dispatch({ type: "drafted", draft: result }) },
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

  const save = async () => {
    const errors = saveErrors(current.current, newLine);
    if (Object.keys(dispatch({ type: "save", errors }).errors).length > 0) return;
    const { values, base, lineName, createdLine, acceptedDraft, provenance } = current.current;
    writeJson(AUTHOR_KEY, values.authorName.trim());
    const branch = newLine ? lineName.trim() : (line?.name ?? null);
    createLine.reset();
    let stage: "line" | "commit" = "line";
    try {
      if (newLine && parent && createdLine !== branch) {
        await createLine.mutateAsync({ name: branch ?? "", from_ref: parent.id });
        dispatch({ type: "line-created", name: branch ?? "" });
      }
      stage = "commit";
      const body = formToCommit(values, {
        spaceId,
        expectedHead: base?.id ?? null,
        parentId: base?.id ?? null,
        branch,
        baseMetadata: base?.metadata ?? null,
        // Where the items came from, only when the person took some of the draft's; else the
        // Session it is saved from (how the server knows what the Session saved last).
        provenance: acceptedDraft ? provenance : null,
        source,
      });
      onSaved(await commit.mutateAsync(body), branch);
    } catch (error) {
      if (stage === "commit" && error instanceof ApiError && error.status === 409) {
        const head = await getHead(spaceId, branch).catch(() => null);
        dispatch({ type: "conflict", detail: error.detail, head });
      }
    }
  };

  const chooseWhere = async (next: Where) => {
    if (next !== "on-head") {
      dispatch({ type: "where", where: next, onto: parent });
      return;
    }
    let head = lineHead;
    if (head === null && line?.head_commit_id) {
      head = await getHead(spaceId, line.name).catch(() => null);
      if (head === null || head.id !== line.head_commit_id) return; // not known yet: stay put
      dispatch({ type: "head-fetched", head });
    }
    // Onto the edits as they are now, the ones made while HEAD was fetched included.
    dispatch({ type: "where", where: next, onto: head });
  };

  // Saving again from what the Session saved last, on the line it went to: when that line moved
  // on since (someone else saved on it), the edits go on top of its HEAD unless the person
  // chooses a new line.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form opens.
  useEffect(() => {
    if (options.parentReason === "last-saved" && oldState && ownLine) void chooseWhere("on-head");
  }, []);

  const saveOnNewHead = () => {
    const { conflict } = current.current;
    if (!conflict) return;
    dispatch({ type: "rebase", onto: conflict.head });
    void save();
  };

  return {
    state,
    baseValues,
    line,
    ownLine,
    lineHead,
    oldState,
    newLine,
    drafting: draft.isPending,
    draftError: draft.error,
    saving: commit.isPending || createLine.isPending,
    failure: createLine.error ?? (state.conflict ? null : commit.error),
    runDraft,
    edit: (values: CheckpointFormState["values"]) => dispatch({ type: "edit", values }),
    setLineName: (name: string) => dispatch({ type: "line-name", name }),
    accept: (proposal: CheckpointFormState["proposals"][number]) =>
      dispatch({ type: "accept", proposal }),
    reject: (proposal: CheckpointFormState["proposals"][number]) =>
      dispatch({ type: "reject", proposal }),
    chooseWhere,
    save,
    saveOnNewHead,
  };
}
