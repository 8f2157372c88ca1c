import { useQuery } from "@tanstack/react-query";
import {
  type FocusEvent,
  type KeyboardEvent as ReactKeyboardEvent,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { Link } from "wouter";
import { errorMessage } from "@/components/feedback";
import { spacesQuery } from "@/features/spaces";
import { type FoundHit, useSearch } from "../api/search";
import { nextFocus } from "../lib/arrow-focus";
import { highlightPieces } from "../lib/highlight";
import { earlierHref, earlierWhere, hitHref, hitWhere } from "../lib/hit-label";

const DEBOUNCE_MS = 200;
// What Up and Down move through, in the order they are shown: each hit, its "and N earlier"
// toggle, and the earlier Checkpoints it opens.
const ITEM = "[data-search-item]";

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
  const box = useRef<HTMLElement>(null);
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
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const label = spaceId ? "Search this Space" : "Search all Spaces";
  const showing = open && query.trim().length > 0;
  // Open while the focus is in the box or its results; closed once it goes anywhere else.
  const closeUnlessInside = (event: FocusEvent<HTMLElement>) => {
    if (!box.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
  };
  // Up and Down move the focus from the box through the results and back (Enter then opens a
  // result, or shows an item's earlier Checkpoints, as a click would); Escape goes back to the
  // box, and from the box closes the results.
  const onKeyDown = (event: ReactKeyboardEvent<HTMLElement>) => {
    const items = Array.from(box.current?.querySelectorAll<HTMLElement>(ITEM) ?? []);
    const current = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === "Escape") {
      if (current >= 0) input.current?.focus();
      else {
        setOpen(false);
        input.current?.blur();
      }
      return;
    }
    const next = showing ? nextFocus(current, items.length, event.key) : null;
    if (next === null) return;
    event.preventDefault();
    (next < 0 ? input.current : items[next])?.focus();
  };
  const toggle = (key: string) =>
    setExpanded((shown) => {
      const next = new Set(shown);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  return (
    <search className="search-box" ref={box} onBlur={closeUnlessInside} onKeyDown={onKeyDown}>
      <input
        ref={input}
        type="search"
        aria-label={label}
        aria-controls={resultsId}
        aria-keyshortcuts="ArrowDown"
        placeholder={`${label}…  /`}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
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
                {results.data.items.map((hit) => {
                  const key = `${hit.kind}:${hit.commit_id ?? hit.session_id}:${hit.sequence_number ?? ""}`;
                  return (
                    <li key={key}>
                      <Link
                        href={hitHref(hit)}
                        className="search-hit"
                        data-search-item=""
                        onClick={() => setOpen(false)}
                      >
                        <span className="search-where">
                          {spaceId === null && (
                            <strong>{names.get(hit.repo_id) ?? "Space"} · </strong>
                          )}
                          {hitWhere(hit)}
                        </span>
                        <Snippet hit={hit} />
                      </Link>
                      {hit.earlier.length > 0 && (
                        <Earlier
                          hit={hit}
                          expanded={expanded.has(key)}
                          onToggle={() => toggle(key)}
                          onOpen={() => setOpen(false)}
                        />
                      )}
                    </li>
                  );
                })}
              </ul>
            </>
          )}
        </section>
      )}
    </search>
  );
}

/** The older Checkpoints of an item carried forward: "and N earlier", which lists them. */
function Earlier({
  hit,
  expanded,
  onToggle,
  onOpen,
}: {
  hit: FoundHit;
  expanded: boolean;
  onToggle: () => void;
  onOpen: () => void;
}) {
  const listId = useId();
  return (
    <>
      <button
        type="button"
        className="search-earlier-toggle"
        data-search-item=""
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={onToggle}
      >
        and {hit.earlier.length} earlier
      </button>
      {expanded && (
        <ul className="search-earlier" id={listId} aria-label="Earlier Checkpoints">
          {hit.earlier.map((older) => (
            <li key={older.commit_id}>
              <Link
                href={earlierHref(hit, older)}
                className="search-hit"
                data-search-item=""
                onClick={onOpen}
              >
                <span className="search-where">{earlierWhere(older)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
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
