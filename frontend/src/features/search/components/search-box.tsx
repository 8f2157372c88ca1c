import { useQuery } from "@tanstack/react-query";
import { type FocusEvent, type RefObject, useEffect, useId, useRef, useState } from "react";
import { Link } from "wouter";
import { errorMessage } from "@/components/feedback";
import { spacesQuery } from "@/features/spaces";
import { type FoundHit, useSearch } from "../api/search";
import { fieldLabel } from "../lib/field-label";
import { highlightPieces } from "../lib/highlight";

const DEBOUNCE_MS = 200;

/** Where a hit opens: a Checkpoint in its Space's panel, or a Turn scrolled to in its Session. */
export function hitHref(hit: FoundHit): string {
  if (hit.kind === "checkpoint") return `/spaces/${hit.repo_id}?checkpoint=${hit.commit_id}`;
  return `/spaces/${hit.repo_id}/sessions/${hit.session_id}?turn=${hit.sequence_number}`;
}

/** Focus the box with `/` (when not typing elsewhere) or Ctrl+K / ⌘K (anywhere). */
function useFocusKeys(input: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const target = event.target as HTMLElement | null;
      const typing =
        target?.isContentEditable ||
        target instanceof HTMLInputElement ||
        target instanceof HTMLTextAreaElement ||
        target instanceof HTMLSelectElement;
      const slash = event.key === "/" && !typing && !event.ctrlKey && !event.metaKey;
      const palette = event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey);
      if (!slash && !palette) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [input]);
}

/** Full-text search over Checkpoints and Turns: every Space's, or one Space's. */
export function SearchBox({ spaceId = null }: { spaceId?: string | null }) {
  const input = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const resultsId = useId();
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  useFocusKeys(input);
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const results = useSearch(query, spaceId);
  const spaces = useQuery({ ...spacesQuery(), enabled: open && spaceId === null });
  const names = new Map((spaces.data?.items ?? []).map((space) => [space.id, space.name]));
  const label = spaceId ? "Search this Space" : "Search all Spaces";
  const showing = open && query.trim().length > 0;
  // Open while the focus is in the box or its results; closed once it goes anywhere else.
  const closeUnlessInside = (event: FocusEvent<HTMLElement>) => {
    if (!box.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
  };

  return (
    <div className="search-box" ref={box}>
      <input
        ref={input}
        type="search"
        aria-label={label}
        aria-controls={resultsId}
        placeholder={`${label}…  /`}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={closeUnlessInside}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            setOpen(false);
            input.current?.blur();
          }
        }}
      />
      {showing && (
        <section className="search-results" id={resultsId} aria-label="Search results">
          {results.isError ? (
            <p className="search-note" role="status">
              {errorMessage(results.error)}
            </p>
          ) : results.data === undefined ? (
            <p className="search-note" role="status">
              Searching…
            </p>
          ) : results.data.items.length === 0 ? (
            <p className="search-note" role="status">
              Nothing matches “{query.trim()}”.
            </p>
          ) : (
            <>
              <p className="search-note" role="status">
                {results.data.total_is_exact
                  ? results.data.total
                  : `More than ${results.data.total}`}{" "}
                {results.data.total === 1 ? "match" : "matches"}
              </p>
              <ul>
                {results.data.items.map((hit) => (
                  <li
                    key={`${hit.kind}:${hit.commit_id ?? hit.session_id}:${hit.sequence_number ?? ""}`}
                  >
                    <Link
                      href={hitHref(hit)}
                      className="search-hit"
                      onClick={() => setOpen(false)}
                      onBlur={closeUnlessInside}
                    >
                      <span className="search-where">
                        {spaceId === null && (
                          <strong>{names.get(hit.repo_id) ?? "Space"} · </strong>
                        )}
                        {hit.kind === "checkpoint"
                          ? `Checkpoint · ${fieldLabel(hit.field)}`
                          : `Turn ${hit.sequence_number}`}
                      </span>
                      <Snippet hit={hit} />
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </div>
  );
}

function Snippet({ hit }: { hit: FoundHit }) {
  return (
    <span className="search-snippet">
      {highlightPieces(hit.snippet, hit.highlights).map((piece, index) =>
        piece.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one snippet never reorder
          <mark key={index}>{piece.text}</mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one snippet never reorder
          <span key={index}>{piece.text}</span>
        ),
      )}
    </span>
  );
}
