import { type Author, authorLabel, authorNote } from "@/lib/author";

/**
 * Who made something: a named agent stands out (a key it was made with, or a client's claim);
 * the person reads as their name or "you". With `claimed`, what the client said in its place.
 */
export function AuthorBadge({
  author,
  claimed = null,
}: {
  author: Author;
  claimed?: Author | null;
}) {
  return (
    <span
      className={`author-badge ${author.kind}${author.kind === "agent" && !author.id ? " unvouched" : ""}`}
      title={authorNote(author)}
      data-testid="author"
      data-kind={author.kind}
    >
      {author.kind === "agent" && (
        <svg className="author-icon" viewBox="0 0 16 16" aria-hidden="true">
          <rect x="3" y="5" width="10" height="8" rx="2" />
          <path d="M8 2v3M6 9h.01M10 9h.01" />
        </svg>
      )}
      {authorLabel(author)}
      {claimed && (
        <span
          className="author-claimed"
          title="What the client that saved it said in the author's place"
        >
          {" "}
          (claimed: {authorLabel(claimed)})
        </span>
      )}
    </span>
  );
}
