import { type FormEvent, useRef, useState } from "react";
import type { Session } from "@/api/models";
import { FailureNotice } from "@/components/feedback";
import { useRenameSession } from "../api/rename-session";
import { sessionTitle } from "../lib/title";

/** The open Session's name, renamed in place: ✎ (or a double click), Enter saves, Escape cancels. */
export function SessionTitle({ session }: { session: Session }) {
  const rename = useRenameSession();
  const [draft, setDraft] = useState<string | null>(null);
  // Escape closes the field, and a browser may report that as a blur: which must not save.
  const cancelled = useRef(false);
  const title = sessionTitle(session);

  const start = () => {
    rename.reset();
    cancelled.current = false;
    setDraft(session.title);
  };
  const save = (event?: FormEvent) => {
    event?.preventDefault();
    if (draft === null || rename.isPending || cancelled.current) return;
    const next = draft.trim();
    if (next === session.title.trim()) return setDraft(null);
    rename.mutate({ sessionId: session.id, title: next }, { onSuccess: () => setDraft(null) });
  };

  if (draft !== null) {
    return (
      <form className="session-rename" onSubmit={save}>
        <input
          aria-label="Session name"
          value={draft}
          maxLength={200}
          placeholder="Untitled"
          // biome-ignore lint/a11y/noAutofocus: the person just asked to edit this name.
          autoFocus
          disabled={rename.isPending}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => save()}
          onKeyDown={(e) => {
            if (e.key !== "Escape") return;
            cancelled.current = true;
            setDraft(null);
          }}
        />
        <FailureNotice error={rename.error} prefix="Not renamed: " />
      </form>
    );
  }
  return (
    <>
      <h1 title={title} onDoubleClick={start}>
        {title}
      </h1>
      <button
        type="button"
        className="btn ghost icon rename"
        aria-label="Rename Session"
        title="Rename"
        onClick={start}
      >
        ✎
      </button>
    </>
  );
}
