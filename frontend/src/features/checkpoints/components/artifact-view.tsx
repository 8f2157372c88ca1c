import { useState } from "react";
import type { Artifact } from "@/api/models";
import { Markdown } from "@/components/markdown";
import { formatBytes } from "@/lib/format";
import { highlight } from "@/lib/markdown";
import { isMarkdown, languageOf } from "../lib/artifact";

/** One artifact, folded; a Markdown one opens rendered, with a switch to its source. */
export function ArtifactView({ artifact: a }: { artifact: Artifact }) {
  const markdown = isMarkdown(a);
  const [rendered, setRendered] = useState(true);
  return (
    <details className="artifact" data-testid="artifact">
      <summary>
        <strong>{a.name}</strong>{" "}
        <span className="muted small">
          {a.media_type ?? "text/plain"} · {formatBytes(new TextEncoder().encode(a.content).length)}
        </span>
      </summary>
      {markdown && (
        <fieldset className="segmented" aria-label={`Show ${a.name} as`}>
          <button type="button" aria-pressed={rendered} onClick={() => setRendered(true)}>
            Rendered
          </button>
          <button type="button" aria-pressed={!rendered} onClick={() => setRendered(false)}>
            Source
          </button>
        </fieldset>
      )}
      {markdown && rendered ? (
        <Markdown source={a.content} className="artifact-rendered" />
      ) : (
        <pre className="code-block">
          <code
            className="hljs"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: highlight() escapes the text.
            dangerouslySetInnerHTML={{ __html: highlight(a.content, languageOf(a.name)) }}
          />
        </pre>
      )}
    </details>
  );
}
